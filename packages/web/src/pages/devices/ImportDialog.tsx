import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { DEVICE_KINDS, type DeviceKind } from '@se/core';
import { Alert, Button, Flex, Modal, Progress, Table, Typography, Upload, type TableColumnsType } from 'antd';
import { useEffect, useRef, useState } from 'react';
import {
  downloadFile,
  importPath,
  templatePath,
  uploadSheet,
  type ImportMode,
  type ImportResult,
  type ImportRowError,
} from '../../api/devices.ts';
import { isSessionCode } from '../../api/client.ts';
import { errorText } from '../../components/error-text.ts';
import type { ClosingProps } from '../../components/FormModal.tsx';
import { toast } from '../../components/toast.ts';
import { useIsMobile } from '../../layout/viewport.ts';

/** SPEC §9 has no limit for imports; this keeps a mistaken pick (a video) off the wire. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const ACCEPT = '.xlsx,.csv';

type Phase =
  | { step: 'pick' }
  | { step: 'uploading'; percent: number | null; mode: ImportMode }
  /** ok: imported (maybe with skipped rows); refused: mode=all found bad rows, nothing imported. */
  | { step: 'done'; ok: boolean; message: string; result: ImportResult | null };

// The server names fields as on the wire; the sheet's header row uses these words.
const FIELD_LABELS: Record<string, string> = {
  ser_num: '序列号',
  desc: '描述',
  location: '位置',
  lng: '经度',
  lat: '纬度',
  version: '版本',
  url: '地址',
  type: '类型',
  industrial_type: '工业类型',
};

const errorColumns = (fields: Record<string, string>): TableColumnsType<ImportRowError> => [
  { title: '行号', dataIndex: 'row', width: 70 },
  {
    title: '字段',
    dataIndex: 'field',
    width: 110,
    render: (v: string) => (v ? (fields[v] ?? v) : '—'),
  },
  { title: '问题', dataIndex: 'message' },
];

/** What an import dialog imports into, when it is not a device kind's registry. */
export interface ImportTarget {
  label: string;
  /** The counting word of a row: 台 (devices), 名 (people). */
  unit: string;
  template: string;
  upload: string;
  fields: Record<string, string>;
}

const deviceTarget = (kind: DeviceKind): ImportTarget => ({
  label: DEVICE_KINDS[kind].label,
  unit: '台',
  template: templatePath(kind),
  upload: importPath(kind),
  fields: FIELD_LABELS,
});

/**
 * 导入: a spreadsheet of devices (or of another target's rows). Everything or nothing first;
 * when rows are bad their errors are listed and "仅导入有效行" sends the same file again for
 * the good rows only.
 */
export function ImportDialog({
  kind,
  onImported,
  onClosed,
}: {
  kind: DeviceKind | ImportTarget;
  onImported: () => void;
} & ClosingProps) {
  const mobile = useIsMobile();
  const target = typeof kind === 'string' ? deviceTarget(kind) : kind;
  const label = target.label;
  const [open, setOpen] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: 'pick' });
  const abort = useRef<AbortController | null>(null);

  // Closing mid-upload cancels it.
  useEffect(() => () => abort.current?.abort(), []);

  const send = async (mode: ImportMode) => {
    if (!file) return;
    abort.current = new AbortController();
    setPhase({ step: 'uploading', percent: null, mode });
    try {
      const res = await uploadSheet(
        target.upload,
        file,
        mode,
        (percent) => setPhase({ step: 'uploading', percent, mode }),
        abort.current.signal,
      );
      if (isSessionCode(res.code)) {
        setOpen(false);
        return;
      }
      const ok = res.code === 200;
      setPhase({ step: 'done', ok, message: res.message, result: res.data ?? null });
      if (ok && (res.data?.imported ?? 0) > 0) {
        toast.success(`成功导入 ${res.data?.imported} ${target.unit}${label}`);
        onImported();
      }
    } catch (error) {
      if (abort.current?.signal.aborted) return;
      setPhase({ step: 'pick' });
      toast.error(errorText(error));
    }
  };

  const template = async (format: 'xlsx' | 'csv') => {
    const outcome = await downloadFile(target.template, { format }, `${label}导入模板.${format}`);
    if (!outcome.ok) toast.warning(outcome.message);
  };

  const uploading = phase.step === 'uploading';
  const result = phase.step === 'done' ? phase.result : null;
  const refused = phase.step === 'done' && !phase.ok;
  const errors = result?.errors ?? [];
  const validRows = result ? Math.max(0, result.total_rows - new Set(errors.map((e) => e.row)).size) : 0;

  return (
    <Modal
      open={open}
      title={`导入${label}`}
      width={mobile ? '95%' : 640}
      mask={{ closable: false }}
      onCancel={() => setOpen(false)}
      afterOpenChange={(visible) => {
        if (!visible) onClosed();
      }}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8} wrap>
          <Button onClick={() => setOpen(false)}>
            {phase.step === 'done' && phase.ok ? '完成' : '取 消'}
          </Button>
          {refused && validRows > 0 && (
            <Button type="primary" onClick={() => void send('valid')}>
              仅导入有效行
            </Button>
          )}
          {!(phase.step === 'done' && phase.ok) && !refused && (
            <Button type="primary" disabled={!file} loading={uploading} onClick={() => void send('all')}>
              开始导入
            </Button>
          )}
        </Flex>
      }
    >
      <Flex vertical gap={12} style={{ marginTop: 12 }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          支持 .xlsx 和 .csv 文件，第一行为表头。请先下载模板，按模板填写后上传。
        </Typography.Paragraph>
        <Flex gap={8} wrap>
          <Button size="small" icon={<DownloadOutlined />} onClick={() => void template('xlsx')}>
            下载模板 (.xlsx)
          </Button>
          <Button size="small" icon={<DownloadOutlined />} onClick={() => void template('csv')}>
            下载模板 (.csv)
          </Button>
        </Flex>

        <Upload.Dragger
          accept={ACCEPT}
          maxCount={1}
          disabled={uploading}
          fileList={
            file ? [{ uid: 'picked', name: file.name, size: file.size, status: 'done', type: file.type }] : []
          }
          beforeUpload={(picked) => {
            if (!/\.(xlsx|csv)$/i.test(picked.name)) {
              toast.warning('只能导入 .xlsx 或 .csv 文件');
            } else if (picked.size > MAX_FILE_BYTES) {
              toast.warning('文件不能超过 10 MB');
            } else {
              setFile(picked);
              setPhase({ step: 'pick' });
            }
            // The file goes up with our own request (raw body, progress, mode), not antd's.
            return false;
          }}
          onRemove={() => {
            setFile(null);
            setPhase({ step: 'pick' });
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">点击或拖拽文件到此处</p>
          <p className="ant-upload-hint">一次一个文件，最大 10 MB</p>
        </Upload.Dragger>

        {uploading && (
          <div>
            <Typography.Text type="secondary">
              {phase.mode === 'valid' ? '正在导入有效行…' : '正在上传并校验…'}
            </Typography.Text>
            {phase.percent === null || phase.percent >= 100 ? (
              // Sent (or no size known): the server is checking rows; no honest percentage.
              <Progress percent={100} status="active" showInfo={false} />
            ) : (
              <Progress percent={phase.percent} status="active" />
            )}
          </div>
        )}

        {phase.step === 'done' &&
          (phase.ok ? (
            <Alert
              type={errors.length > 0 ? 'warning' : 'success'}
              showIcon
              title={`已导入 ${result?.imported ?? 0} 行，共 ${result?.total_rows ?? 0} 行`}
              description={errors.length > 0 ? '以下行有问题，未导入：' : undefined}
            />
          ) : (
            <Alert
              type="error"
              showIcon
              title={phase.message || '导入失败'}
              description={
                result
                  ? `共 ${result.total_rows} 行，其中 ${result.total_rows - validRows} 行有问题。` +
                    (validRows > 0
                      ? `可修改文件后重新上传，或点击“仅导入有效行”导入其余 ${validRows} 行。`
                      : '')
                  : undefined
              }
            />
          ))}

        {errors.length > 0 && (
          <Table<ImportRowError>
            rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
            size="small"
            columns={errorColumns(target.fields)}
            dataSource={errors}
            pagination={errors.length > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
            scroll={{ y: 300 }}
          />
        )}
      </Flex>
    </Modal>
  );
}
