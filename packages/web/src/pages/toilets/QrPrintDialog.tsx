import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import type { ToiletRow } from '@se/core';
import { Button, Flex, Modal, Spin, Typography } from 'antd';
import { CopyButton } from '../../components/CopyButton.tsx';
import { useIsMobile } from '../../layout/viewport.ts';
import { commentUrl } from './detail-text.ts';
import { useQrDataUrl } from './qr.ts';
import { addressText } from './toilet-text.ts';
import './print.css';

/** The printable sheet of a toilet: its name, the QR code of its review page and a line to scan. */
export function QrPrintDialog({ toilet, onClose }: { toilet: ToiletRow; onClose: () => void }) {
  const mobile = useIsMobile();
  const url = commentUrl(window.location.origin, toilet.public_id);
  const qr = useQrDataUrl(url, 640);
  const address = addressText(toilet);
  return (
    <Modal
      open
      title="评价二维码"
      rootClassName="toilet-print-modal"
      width={mobile ? '95%' : 520}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Flex gap={8} justify="end" wrap>
          <CopyButton text={url}>复制链接</CopyButton>
          <Button
            icon={<DownloadOutlined />}
            href={qr.url ?? undefined}
            download={`${toilet.name}-评价二维码.png`}
            disabled={!qr.url}
          >
            下载图片
          </Button>
          <Button type="primary" icon={<PrinterOutlined />} disabled={!qr.url} onClick={() => window.print()}>
            打印
          </Button>
        </Flex>
      }
    >
      <div className="toilet-print" data-testid="toilet-qr-sheet">
        <Flex vertical align="center" gap={8} style={{ padding: '8px 0' }}>
          <Typography.Title level={3} style={{ margin: 0, textAlign: 'center' }}>
            {toilet.name}
          </Typography.Title>
          {address && <Typography.Text type="secondary">{address}</Typography.Text>}
          <div
            className="toilet-print-qr"
            style={{
              width: 280,
              height: 280,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
            }}
          >
            {qr.url ? (
              <img src={qr.url} alt={`${toilet.name} 评价二维码`} width={280} height={280} />
            ) : qr.failed ? (
              <Typography.Text type="danger">二维码生成失败，请复制链接</Typography.Text>
            ) : (
              <Spin />
            )}
          </div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            扫码评价本厕所
          </Typography.Title>
          <Typography.Text type="secondary">您的意见帮助我们做得更好</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
            {url}
          </Typography.Text>
        </Flex>
      </div>
    </Modal>
  );
}
