import {
  DEVICE_KINDS,
  TELEMETRY_EXPORT,
  TELEMETRY_KINDS,
  telemetryExportQuery,
  type DeviceKind,
  type TelemetryKind,
} from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Select } from 'antd';
import { DatePicker } from '../../components/pickers.ts';
import type { Dayjs } from 'dayjs';
import { nowUtc8 } from '../../components/list/index.ts';
import { useState } from 'react';
import { listDevices } from '../../api/devices.ts';
import { startExport } from '../../api/downloads.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { FormModal } from '../../components/FormModal.tsx';
import { useIsMobile } from '../../layout/viewport.ts';
import { useDebounced } from '../../components/use-debounced.ts';

const TIME = 'YYYY-MM-DD HH:mm:ss';

const kindLabel = (k: TelemetryKind) => (k === 'sensor' ? '传感器' : DEVICE_KINDS[k].label);

const KIND_OPTIONS = TELEMETRY_KINDS.map((k) => ({ value: k, label: kindLabel(k) }));

/** The form as the export's filter: what the server checks again with the same schema. */
export function telemetryParams(kind: TelemetryKind, ids: number[], range: [Dayjs, Dayjs] | null) {
  return {
    kind,
    ...(ids.length ? { ids } : {}),
    start: range?.[0]?.format(TIME) ?? '',
    end: range?.[1]?.format(TIME) ?? '',
  };
}

/** The first problem of the filter in words, or null when the server would take it. */
export function telemetryProblem(params: ReturnType<typeof telemetryParams>): string | null {
  if (!params.start || !params.end) return '请选择时间范围';
  const r = telemetryExportQuery.safeParse(params);
  return r.success ? null : (r.error.issues[0]?.message ?? '筛选条件有误');
}

/**
 * 导出历史数据: raw readings of chosen devices (or every visible device of a kind, at most
 * 100) over at most 31 days, as a CSV made in the background.
 */
export function TelemetryExportDialog({
  onStarted,
  onClosed,
}: {
  onStarted: () => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const [kind, setKind] = useState<TelemetryKind>('gateway');
  const [ids, setIds] = useState<number[]>([]);
  const [search, setSearch] = useState('');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(() => [
    nowUtc8().subtract(1, 'day').startOf('minute'),
    nowUtc8().startOf('minute'),
  ]);
  const [problem, setProblem] = useState<string | null>(null);
  const keywords = useDebounced(search.trim());
  const pickable = kind !== 'sensor';

  const devices = useQuery({
    queryKey: ['telemetry-export-devices', kind, keywords],
    queryFn: () =>
      loadOrThrow(() => listDevices(kind as DeviceKind, { keywords: keywords || undefined, page_size: 50 })),
    enabled: open && pickable,
  });

  const submit = async () => {
    const params = telemetryParams(kind, ids, range);
    const p = telemetryProblem(params);
    setProblem(p);
    if (p) return;
    setSaving(true);
    const outcome = await attempt(() => startExport('telemetry', params), '已加入下载中心');
    setSaving(false);
    if (outcome.ok) {
      setOpen(false);
      onStarted();
    } else setProblem(outcome.message);
  };

  const now = nowUtc8();
  return (
    <FormModal
      open={open}
      title="导出历史数据"
      width={560}
      okText="开始导出"
      saving={saving}
      onSave={() => void submit()}
      onCancel={() => setOpen(false)}
      onClosed={onClosed}
    >
      <Form layout="vertical">
        <Form.Item label="设备类型" required>
          <Select<TelemetryKind>
            value={kind}
            options={KIND_OPTIONS}
            onChange={(k) => {
              setKind(k);
              setIds([]);
              setSearch('');
            }}
            aria-label="设备类型"
          />
        </Form.Item>
        <Form.Item
          label="设备"
          extra={
            pickable
              ? `不选则导出该类型全部可见设备；一次最多 ${TELEMETRY_EXPORT.maxDevices} 台`
              : `导出全部可见传感器（最多 ${TELEMETRY_EXPORT.maxDevices} 台）`
          }
        >
          <Select<number[]>
            mode="multiple"
            value={ids}
            onChange={setIds}
            disabled={!pickable}
            showSearch={{ filterOption: false, onSearch: setSearch }}
            loading={devices.isFetching}
            placeholder={pickable ? '搜索序列号 / 描述 / 位置' : '全部传感器'}
            options={(devices.data?.list ?? []).map((d) => ({
              value: d.id,
              label: d.desc ? `${d.ser_num}（${d.desc}）` : d.ser_num,
            }))}
            maxCount={TELEMETRY_EXPORT.maxDevices}
            notFoundContent={devices.isFetching ? '加载中…' : '没有匹配的设备'}
            aria-label="设备"
          />
        </Form.Item>
        <Form.Item label="时间范围" required extra={`最长 ${TELEMETRY_EXPORT.maxDays} 天`}>
          <DatePicker.RangePicker
            value={range}
            onChange={(r) => setRange(r && r[0] && r[1] ? [r[0], r[1]] : null)}
            showTime
            format={TIME}
            placeholder={['开始时间', '结束时间']}
            presets={[
              { label: '最近 24 小时', value: [now.subtract(1, 'day'), now] },
              { label: '最近 7 天', value: [now.subtract(7, 'day'), now] },
              { label: '最近 30 天', value: [now.subtract(30, 'day'), now] },
            ]}
            style={{ width: '100%' }}
            inputReadOnly={mobile}
          />
        </Form.Item>
        {problem && <Alert type="warning" showIcon title={problem} />}
      </Form>
    </FormModal>
  );
}
