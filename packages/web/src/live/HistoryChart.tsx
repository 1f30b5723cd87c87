import { HISTORY_RANGES, type HistoryRange } from '@se/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Empty, Flex, Radio, Spin, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { getHistory } from '../api/live.ts';
import { loadOrThrow } from '../components/feedback.ts';
import { chartFields } from './latest-values.ts';
import { fieldsByName, historyOption, mergeSelection, type HistoryOption } from './history-option.ts';
import { useECharts } from './use-echarts.ts';

const RANGE_OPTIONS: { value: HistoryRange; label: string }[] = [
  { value: '1h', label: '1小时' },
  { value: '24h', label: '24小时' },
  { value: '7d', label: '7天' },
  { value: '30d', label: '30天' },
];

const CHART_HEIGHT = 300;
// The last hour's chart follows the device; longer ranges change too slowly to matter.
const ONE_HOUR_REFRESH_MS = 60_000;

/** An ECharts canvas in a div: created when echarts has loaded, resized with its box, disposed with it. */
function Chart({
  option,
  onLegendChange,
}: {
  option: HistoryOption;
  onLegendChange: (selected: Record<string, boolean>) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const legendChange = useRef(onLegendChange);
  useEffect(() => {
    legendChange.current = onLegendChange;
  });
  const state = useECharts(box, option, {
    update: { notMerge: true },
    onInit: (chart) =>
      chart.on('legendselectchanged', (e) => {
        legendChange.current((e as { selected: Record<string, boolean> }).selected);
      }),
  });

  return (
    <Spin spinning={state === 'loading'}>
      {state === 'failed' ? (
        <Empty description="图表加载失败，请刷新页面重试" style={{ height: CHART_HEIGHT, paddingTop: 80 }} />
      ) : (
        <div ref={box} style={{ width: '100%', height: CHART_HEIGHT }} data-testid="history-chart" />
      )}
    </Spin>
  );
}

/** 历史数据: the device's numeric fields over 1 h to 30 d, fields switched on and off in the legend. */
export function HistoryChart({ deviceId, kind }: { deviceId: number; kind: string }) {
  const [range, setRange] = useState<HistoryRange>('24h');
  const [chosen, setChosen] = useState<Record<string, boolean> | null>(null);
  const history = useQuery({
    queryKey: ['history', deviceId, range],
    queryFn: () => loadOrThrow(() => getHistory(deviceId, range)),
    refetchInterval: range === '1h' ? ONE_HOUR_REFRESH_MS : false,
    // Another range keeps the chart (and its legend) while the new points load.
    placeholderData: keepPreviousData,
  });
  const data = history.data;
  const fields = useMemo(() => (data ? chartFields(data.fields) : []), [data]);
  const selected = useMemo(() => mergeSelection(fields, chosen), [fields, chosen]);
  // The window ends when the points were fetched; a refetch moves it along.
  const fetchedAt = history.dataUpdatedAt;
  const shownRange = history.isPlaceholderData ? null : range;
  const option = useMemo(() => {
    if (!data) return null;
    const span = shownRange ? { start: fetchedAt - HISTORY_RANGES[shownRange], end: fetchedAt } : undefined;
    return historyOption(kind, data, selected, span);
  }, [data, kind, selected, shownRange, fetchedAt]);

  const onLegendChange = (byName: Record<string, boolean>) => {
    if (!data) return;
    const field = fieldsByName(kind, fields);
    setChosen(Object.fromEntries(Object.entries(byName).map(([name, on]) => [field[name] ?? name, on])));
  };

  const empty = data && (data.points.length === 0 || fields.length === 0);
  return (
    <Flex vertical gap={8}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Radio.Group
          optionType="button"
          size="small"
          value={range}
          onChange={(e) => setRange(e.target.value as HistoryRange)}
          options={RANGE_OPTIONS}
          aria-label="时间范围"
        />
        {data && !empty && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {bucketCaption(data.bucket_ms)}
            ，点击图例显示或隐藏
          </Typography.Text>
        )}
      </Flex>
      {history.isPending ? (
        <Spin>
          <div style={{ height: CHART_HEIGHT }} />
        </Spin>
      ) : history.isError ? (
        <Empty description="加载失败" style={{ height: CHART_HEIGHT, paddingTop: 80 }} />
      ) : empty || !option ? (
        <Empty description="暂无数据" style={{ height: CHART_HEIGHT, paddingTop: 80 }} />
      ) : (
        <Spin spinning={history.isPlaceholderData}>
          <Chart option={option} onLegendChange={onLegendChange} />
        </Spin>
      )}
    </Flex>
  );
}

/** What a point is: 每小时平均, or 每 2 小时 平均 (30 days of the hourly rollup), 每 5 分钟 平均. */
export function bucketCaption(ms: number): string {
  return ms === 3_600_000 ? '每小时平均' : `每 ${bucketText(ms)} 平均`;
}

/** A bucket's length in words: 10 秒, 5 分钟, 1 小时. */
export function bucketText(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.round(ms / 1000))} 秒`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} 分钟`;
  return `${Math.round(ms / 3_600_000)} 小时`;
}
