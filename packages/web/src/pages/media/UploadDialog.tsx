import { InboxOutlined } from '@ant-design/icons';
import { MEDIA_LIMITS } from '@se/core';
import { Alert, Flex, Modal, Progress, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { uploadMedia } from '../../api/media.ts';
import { errorText } from '../../components/error-text.ts';
import type { ClosingProps } from '../../components/FormModal.tsx';
import { useIsMobile } from '../../layout/viewport.ts';
import { ACCEPT, KIND_WORD, baseName, bytesText } from './media-text.ts';

interface Job {
  uid: string;
  file: File;
  percent: number;
  state: 'waiting' | 'sending' | 'retrying' | 'done' | 'failed';
  message?: string;
}

const STATE_WORD: Record<Job['state'], string> = {
  waiting: '等待上传',
  sending: '上传中',
  retrying: '连接中断，正在续传…',
  done: '已上传，待审核',
  failed: '失败',
};

/**
 * 上传图片 / 上传视频: files dropped or picked (several at once), each sent in chunks with its
 * own progress bar; a dropped connection resumes where the server stopped, and the same file
 * picked again later resumes too. Files go one after another.
 */
export function UploadDialog({
  kind,
  onSaved,
  onClosed,
}: { kind: 'picture' | 'video'; onSaved: () => void } & ClosingProps) {
  const mobile = useIsMobile();
  const [open, setOpen] = useState(true);
  const [jobs, setJobs] = useState<Job[]>([]);
  const [running, setRunning] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const seq = useRef(0);
  const word = KIND_WORD[kind];
  const limit = kind === 'picture' ? MEDIA_LIMITS.pictureBytes : MEDIA_LIMITS.videoBytes;

  const patch = (uid: string, p: Partial<Job>) =>
    setJobs((all) => all.map((j) => (j.uid === uid ? { ...j, ...p } : j)));

  const run = async () => {
    setRunning(true);
    abort.current = new AbortController();
    let any = false;
    for (const job of jobs) {
      if (job.state === 'done') continue;
      if (job.file.size > limit) {
        patch(job.uid, { state: 'failed', message: `${word}不能超过 ${bytesText(limit)}` });
        continue;
      }
      patch(job.uid, { state: 'sending', message: undefined });
      try {
        const r = await uploadMedia(
          job.file,
          kind,
          baseName(job.file.name),
          (p) =>
            patch(job.uid, {
              percent: Math.floor((p.sent / p.total) * 100),
              state: p.retrying ? 'retrying' : 'sending',
            }),
          abort.current.signal,
        );
        if (r.code === 200) {
          any = true;
          patch(job.uid, { state: 'done', percent: 100 });
        } else patch(job.uid, { state: 'failed', message: r.message });
      } catch (err) {
        patch(job.uid, { state: 'failed', message: errorText(err) });
        if (abort.current.signal.aborted) break;
      }
    }
    setRunning(false);
    if (any) onSaved();
  };

  const close = () => {
    abort.current?.abort();
    setOpen(false);
  };
  const pending = jobs.some((j) => j.state !== 'done');

  return (
    <Modal
      open={open}
      title={`上传${word}`}
      width={mobile ? '95%' : 640}
      okText={running ? '上传中…' : '开始上传'}
      cancelText={running ? '停止' : '关 闭'}
      okButtonProps={{ disabled: running || !pending, loading: running }}
      mask={{ closable: false }}
      onOk={() => void run()}
      onCancel={close}
      afterOpenChange={(v) => {
        if (!v) onClosed();
      }}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Upload.Dragger
          multiple
          accept={ACCEPT[kind]}
          showUploadList={false}
          disabled={running}
          beforeUpload={(file) => {
            const uid = `job-${++seq.current}`;
            setJobs((all) => [...all, { uid, file: file as File, percent: 0, state: 'waiting' }]);
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">点击或拖拽{word}到此处，可一次选择多个</p>
          <p className="ant-upload-hint">
            {kind === 'picture'
              ? `JPEG、PNG、WebP、GIF，单个不超过 ${bytesText(limit)}；上传后去除拍摄信息并生成缩略图`
              : `MP4（H.264/AAC）或 WebM（VP9），单个不超过 ${bytesText(limit)}；大文件分段上传，断网后可续传`}
          </p>
        </Upload.Dragger>
        {jobs.length > 0 && (
          <Flex vertical gap={8} data-testid="upload-jobs">
            {jobs.map((j) => (
              <div key={j.uid}>
                <Flex justify="space-between" gap={8}>
                  <Typography.Text ellipsis style={{ maxWidth: '60%' }}>
                    {j.file.name}
                  </Typography.Text>
                  <Typography.Text type={j.state === 'failed' ? 'danger' : 'secondary'}>
                    {bytesText(j.file.size)} · {STATE_WORD[j.state]}
                  </Typography.Text>
                </Flex>
                <Progress
                  percent={j.percent}
                  size="small"
                  status={j.state === 'failed' ? 'exception' : j.state === 'done' ? 'success' : 'active'}
                />
                {j.message && <Alert type="error" showIcon title={j.message} />}
              </div>
            ))}
          </Flex>
        )}
      </Flex>
    </Modal>
  );
}
