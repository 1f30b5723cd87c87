import { DownloadOutlined } from '@ant-design/icons';
import {
  EXPOSURE_GASES,
  EXPOSURE_LIMITS,
  type ExposureGas,
  type ExposureRow,
  type GasFigures,
} from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Empty,
  Flex,
  Select,
  Spin,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { DatePicker } from '../../components/pickers.ts';
import type { Dayjs } from 'dayjs';
import { nowUtc8 } from '../../components/list/index.ts';
import { useState } from 'react';
import { getExposure, listSites } from '../../api/industry.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import { queueExport, useGoTo } from '../downloads/export-toast.tsx';
import { limitText } from './industry-text.ts';
import { sitesKey } from './MonitorsTab.tsx';

const VERDICT = {
  ok: { color: 'green', text: '达标' },
  over: { color: 'red', text: '超标' },
  unknown: { color: 'default', text: '无数据' },
} as const;

function GasFiguresCell({ gas, f }: { gas: ExposureGas; f: GasFigures | undefined }) {
  if (!f || f.verdict === 'unknown') return <Typography.Text type="secondary">无数据</Typography.Text>;
  const l = EXPOSURE_LIMITS[gas];
  const v = VERDICT[f.verdict];
  return (
    <Tooltip title={f.breaches.length ? f.breaches.join('；') : limitText(gas)}>
      <Flex vertical gap={2}>
        {l.twa !== null && <span>TWA {f.twa ?? '—'}</span>}
        {l.stel !== null && <span>STEL {f.stel ?? '—'}</span>}
        {l.mac !== null && <span>最高 {f.max ?? '—'}</span>}
        <span>
          <Tag color={v.color}>{v.text}</Tag>
        </span>
      </Flex>
    </Tooltip>
  );
}

const COLUMNS: TableColumnsType<ExposureRow> = [
  { title: '车间', dataIndex: 'building_name', width: 110 },
  { title: '作业区域', dataIndex: 'room_name', width: 130 },
  {
    title: '班次',
    key: 'shift',
    width: 90,
    render: (_: unknown, r: ExposureRow) => (
      <>
        {r.shift_label}
        {r.partial && (
          <Tag color="blue" style={{ marginInlineStart: 4 }}>
            进行中
          </Tag>
        )}
      </>
    ),
  },
  {
    title: '监测时长',
    key: 'cov',
    width: 90,
    render: (_: unknown, r: ExposureRow) => `${r.covered_min} 分钟`,
  },
  ...EXPOSURE_GASES.map((g) => ({
    title: `${EXPOSURE_LIMITS[g].label}（mg/m³）`,
    key: g,
    width: 150,
    render: (_: unknown, r: ExposureRow) => <GasFiguresCell gas={g} f={r.gases[g]} />,
  })),
];

/** 职业接触: one site's exposure per work area and shift for a day, against GBZ 2.1-2019. */
export function ExposureTab() {
  const goTo = useGoTo();
  const sites = useQuery({ queryKey: sitesKey, queryFn: () => loadOrThrow(listSites) });
  const [site, setSite] = useState<number | undefined>();
  const [day, setDay] = useState<Dayjs>(() => nowUtc8());
  const [exporting, setExporting] = useState(false);
  const orgId = site ?? sites.data?.[0]?.id;
  const date = day.format('YYYY-MM-DD');
  const report = useQuery({
    queryKey: ['industry', 'exposure', orgId, date],
    queryFn: () => loadOrThrow(() => getExposure({ org_id: orgId!, date })),
    enabled: orgId !== undefined,
    placeholderData: keepPreviousData,
  });

  const exportDay = async () => {
    if (orgId === undefined) return;
    setExporting(true);
    await queueExport('industry-exposure', { org_id: orgId, date }, goTo);
    setExporting(false);
  };

  if (sites.data && sites.data.length === 0)
    return (
      <Empty description="暂无工业站点：把工业监测仪安置到组织的车间或作业区域后，这里按班次评估职业接触" />
    );

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} align="center">
        <Select
          aria-label="站点"
          style={{ minWidth: 200 }}
          value={orgId}
          loading={sites.isLoading}
          options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          onChange={setSite}
        />
        <DatePicker
          aria-label="日期"
          value={day}
          allowClear={false}
          disabledDate={(d) => d.isAfter(nowUtc8(), 'day')}
          onChange={(d) => d && setDay(d)}
        />
        <Button
          icon={<DownloadOutlined />}
          loading={exporting}
          disabled={orgId === undefined}
          onClick={() => void exportDay()}
        >
          导出日报
        </Button>
      </Flex>
      <Alert
        type="info"
        showIcon
        title="按 GBZ 2.1-2019 评估：TWA 为 8 小时时间加权平均（未监测时段按零计），STEL 为最高的 15 分钟平均，H₂S 以最高容许浓度 MAC 评估；浓度按 25 ℃、101.3 kPa 由 ppm 换算为 mg/m³。"
      />
      {report.isError ? (
        <Typography.Text type="danger">{(report.error as Error).message}</Typography.Text>
      ) : (
        <Spin spinning={report.isFetching}>
          <Table<ExposureRow>
            size="small"
            rowKey={(r) => `${r.building_id}-${r.room_id ?? 0}-${r.shift}`}
            columns={COLUMNS}
            dataSource={report.data?.rows ?? []}
            pagination={false}
            scroll={{ x: 900 }}
            locale={{ emptyText: '该日没有班次数据' }}
          />
        </Spin>
      )}
    </Flex>
  );
}
