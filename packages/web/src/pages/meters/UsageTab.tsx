import { DownloadOutlined } from '@ant-design/icons';
import type { DeviceRow, UsageGrain, UsageRow } from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Empty,
  Flex,
  Radio,
  Spin,
  Statistic,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useMemo, useRef, useState } from 'react';
import { exportMeterUsage, getMeterUsage, type UsageRange } from '../../api/meters.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import type { EChartsCoreOption } from '../../live/echarts.ts';
import { useECharts } from '../../live/use-echarts.ts';
import { periodLabel, usageOption } from './usage-text.ts';

const DAY = 86_400_000;
const RANGES: Record<'30d' | '90d' | '12m' | '36m', { grain: UsageGrain; span: number; label: string }> = {
  '30d': { grain: 'day', span: 30 * DAY, label: '近30天（按日）' },
  '90d': { grain: 'day', span: 90 * DAY, label: '近90天（按日）' },
  '12m': { grain: 'month', span: 365 * DAY, label: '近12个月（按月）' },
  '36m': { grain: 'month', span: 3 * 365 * DAY, label: '近3年（按月）' },
};
type RangeKey = keyof typeof RANGES;

function UsageChart({ option }: { option: EChartsCoreOption }) {
  const box = useRef<HTMLDivElement>(null);
  const state = useECharts(box, option, { update: { notMerge: true } });
  if (state === 'failed') return <Empty description="图表加载失败，请刷新页面重试" />;
  return <div ref={box} role="img" aria-label="用量图" style={{ width: '100%', height: 260 }} />;
}

/** 用量: a meter's daily or monthly usage as a chart and a table, exportable as CSV. */
export function UsageTab({ device }: { device: DeviceRow }) {
  const { message } = App.useApp();
  const [range, setRange] = useState<RangeKey>('30d');
  const [exporting, setExporting] = useState(false);
  // The range is fixed when chosen, so the query key (and the export) name the same rows.
  const [now] = useState(() => Date.now());
  const r = RANGES[range];
  const q: UsageRange = { id: device.id, grain: r.grain, from: now - r.span, to: now };
  const usage = useQuery({
    queryKey: ['meters', 'usage', q],
    queryFn: () => loadOrThrow(() => getMeterUsage(q)),
    placeholderData: keepPreviousData,
  });
  const data = usage.data;
  const option = useMemo(() => (data ? usageOption(data.rows, data.grain, data.unit) : null), [data]);
  const columns: TableColumnsType<UsageRow> = [
    { title: '时段', dataIndex: 'period_start', render: (v: string) => periodLabel(v, r.grain, true) },
    { title: `用量（${data?.unit ?? ''}）`, dataIndex: 'usage', align: 'right' },
    {
      title: '说明',
      key: 'note',
      render: (_: unknown, row: UsageRow) => (
        <>
          {row.gap && <Tag color="blue">含缺测估算</Tag>}
          {row.resets > 0 && <Tag color="orange">换表/清零 {row.resets} 次</Tag>}
        </>
      ),
    },
  ];

  const onExport = async () => {
    setExporting(true);
    const out = await exportMeterUsage(q);
    setExporting(false);
    if (out.ok) message.success(`已导出 ${out.name}`);
    else message.error(out.message);
  };

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} justify="space-between" align="center">
        <Radio.Group
          value={range}
          onChange={(e) => setRange(e.target.value as RangeKey)}
          optionType="button"
          options={(Object.keys(RANGES) as RangeKey[]).map((k) => ({ value: k, label: RANGES[k].label }))}
        />
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void onExport()}>
          导出
        </Button>
      </Flex>
      {usage.isError ? (
        <Typography.Text type="danger">{(usage.error as Error).message}</Typography.Text>
      ) : (
        <Spin spinning={usage.isFetching}>
          {data && data.rows.length === 0 ? (
            <Empty description="该时段没有用量数据（仪表至少上报两次读数后才有用量）" />
          ) : (
            <Flex vertical gap={12}>
              <Statistic title="合计" value={data?.total ?? 0} suffix={data?.unit} precision={3} />
              {option && <UsageChart option={option} />}
              <Table<UsageRow>
                size="small"
                rowKey="period_start"
                columns={columns}
                dataSource={data ? [...data.rows].reverse() : []}
                pagination={{ pageSize: 12, showSizeChanger: false }}
              />
              <Typography.Text type="secondary">
                浅色柱与“含缺测估算”：两次读数间隔超过 2
                小时，其间用量按时间均摊；读数变小视为换表或清零，不计负用量。
              </Typography.Text>
            </Flex>
          )}
        </Spin>
      )}
    </Flex>
  );
}
