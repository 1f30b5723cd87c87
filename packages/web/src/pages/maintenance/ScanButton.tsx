import { ScanOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { cameraError, qrDecoder } from './scan.ts';

/** How often a frame is read while scanning. */
const FRAME_MS = 200;

/**
 * 扫码: opens the phone's rear camera in a dialog and reads QR codes until one is found
 * (`onText`) or the dialog is closed; a refused permission or a missing camera is said in
 * Chinese, and the serial can still be typed.
 */
export function ScanButton({ onText }: { onText: (text: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<ScanOutlined />} size="large" onClick={() => setOpen(true)}>
        扫码
      </Button>
      {open && (
        <ScanDialog
          onClose={() => setOpen(false)}
          onText={(t) => {
            setOpen(false);
            onText(t);
          }}
        />
      )}
    </>
  );
}

function ScanDialog({ onClose, onText }: { onClose: () => void; onText: (text: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
    void (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setError('此浏览器无法使用相机（需要 HTTPS），请手动输入序列号');
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' } },
          audio: false,
        });
      } catch (e) {
        if (!stopped) setError(cameraError(e));
        return;
      }
      if (stopped || !video.current) return stop();
      video.current.srcObject = stream;
      await video.current.play().catch(() => undefined);
      const detect = await qrDecoder();
      setReady(true);
      const tick = async () => {
        if (stopped || !video.current) return;
        const text = await detect(video.current).catch(() => null);
        if (stopped) return;
        if (text) {
          stop();
          onText(text);
          return;
        }
        timer = setTimeout(() => void tick(), FRAME_MS);
      };
      void tick();
    })();
    return stop;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Modal open title="扫码" footer={null} onCancel={onClose} destroyOnHidden width={420}>
      {error ? (
        <Alert type="warning" showIcon message={error} />
      ) : (
        <>
          <video
            ref={video}
            muted
            playsInline
            aria-label="相机画面"
            style={{ width: '100%', background: '#000', borderRadius: 8 }}
          />
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
            {ready ? '将设备或厕所上的二维码对准取景框' : '正在打开相机…'}
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
