import {
  EXPOSURE_GASES,
  EXPOSURE_LIMITS,
  formatDateTime,
  formatQuantity,
  INDUSTRIAL_TYPES,
  type MonitorRow,
} from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Badge, Cascader, Descriptions, Drawer, Flex, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { listMonitors, listSites } from '../../api/industry.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import {
  ListTable,
  ListToolbar,
  RowAction,
  choice,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { AlarmTable } from '../../live/AlarmTable.tsx';
import { HistoryChart } from '../../live/HistoryChart.tsx';
import { ONLINE_FILTER } from '../devices/device-filters.ts';
import type { OnlineChoice } from '../devices/device-text.ts';
import { LEVEL_COLORS, gasReading, limitText, placeOptions, placeText, worstLevel } from './industry-text.ts';

interface Search {
  keywords: string;
  /** site, workshop, work area ids (a prefix). */
  place: number[];
  type: string;
  online: OnlineChoice;
}

export const sitesKey = ['industry', 'sites'] as const;

function PlacePicker({
  value,
  onChange,
  width,
}: {
  value: number[];
  onChange: (v: number[]) => void;
  width?: string | number;
}) {
  const sites = useQuery({ queryKey: sitesKey, queryFn: () => loadOrThrow(listSites) });
  return (
    <Cascader
      aria-label="站点 / 区域"
      placeholder="站点 / 车间 / 作业区域"
      changeOnSelect
      value={value.length ? value : undefined}
      options={placeOptions(sites.data ?? [])}
      onChange={(v) => onChange(((v ?? []) as number[]).map(Number))}
      loading={sites.isLoading}
      style={{ width }}
    />
  );
}

const FILTERS: FilterFields<Search> = {
  place: {
    initial: [],
    instant: true,
    encode: (v) => (v.length ? v.join('-') : undefined),
    decode: (s) =>
      s
        .split('-')
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0)
        .slice(0, 3),
    render: ({ value, onChange, onSearch, mobile }) => (
      <PlacePicker
        value={value}
        width={mobile ? '100%' : 260}
        onChange={(v) => {
          onChange(v);
          onSearch(v);
        }}
      />
    ),
  },
  type: choice<string>({
    label: '工业类型',
    options: [
      { value: '', label: '不限' },
      ...INDUSTRIAL_TYPES.map((t) => ({ value: t.value as string, label: t.label })),
    ],
    width: 170,
    instant: true,
  }),
  online: { ...ONLINE_FILTER, instant: true },
  keywords: text({ placeholder: '序列号 / 描述', label: '关键字', width: 200, search: true }),
};

function GasCell({ row, gas }: { row: MonitorRow; gas: (typeof EXPOSURE_GASES)[number] }) {
  const r = gasReading(row, gas);
  if (!r) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex vertical gap={2}>
      <span>
        {formatQuantity(r.ppm, 'ppm')} <Tag color={LEVEL_COLORS[r.level]}>{r.label}</Tag>
      </span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {formatQuantity(r.mg, 'mg/m³')}
      </Typography.Text>
    </Flex>
  );
}

const COLUMNS: ListColumn<MonitorRow>[] = [
  { title: '序列号', dataIndex: 'ser_num', width: 130, card: false },
  { title: '描述', dataIndex: 'desc', width: 140, ellipsis: true, render: (v: string) => v || '—' },
  { title: '站点 / 区域', key: 'place', width: 200, ellipsis: true, render: (_, r) => placeText(r) },
  ...EXPOSURE_GASES.map((g): ListColumn<MonitorRow> => ({
    title: `${EXPOSURE_LIMITS[g].label} ${g.toUpperCase()}`,
    key: g,
    width: 140,
    render: (_, r) => <GasCell row={r} gas={g} />,
  })),
  {
    title: '状态',
    key: 'online',
    width: 80,
    render: (_, r) => <Badge status={r.online ? 'success' : 'default'} text={r.online ? '在线' : '离线'} />,
  },
  {
    title: '告警',
    key: 'alarms',
    width: 70,
    render: (_, r) =>
      r.open_alarms ? (
        <Tag color="red">{r.open_alarms}</Tag>
      ) : (
        <Typography.Text type="secondary">0</Typography.Text>
      ),
  },
  {
    title: '最后上报',
    key: 'time',
    width: 160,
    from: 'xl',
    render: (_, r) => (r.time ? formatDateTime(r.time) : '从未上报'),
  },
];

function MonitorDrawer({ row, onClose }: { row: MonitorRow | null; onClose: () => void }) {
  const mobile = useIsMobile();
  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      size={mobile ? '100%' : 760}
      title={row ? `监测仪 ${row.ser_num}` : ''}
      destroyOnHidden
    >
      {row && (
        <Tabs
          items={[
            {
              key: 'now',
              label: '最新读数',
              children: (
                <Descriptions column={1} size="small" bordered>
                  <Descriptions.Item label="站点 / 区域">{placeText(row)}</Descriptions.Item>
                  {EXPOSURE_GASES.map((g) => (
                    <Descriptions.Item key={g} label={`${EXPOSURE_LIMITS[g].label}（${limitText(g)}）`}>
                      <GasCell row={row} gas={g} />
                    </Descriptions.Item>
                  ))}
                  <Descriptions.Item label="最后上报">
                    {row.time ? formatDateTime(row.time) : '从未上报'}
                  </Descriptions.Item>
                </Descriptions>
              ),
            },
            {
              key: 'history',
              label: '历史曲线',
              children: <HistoryChart deviceId={row.id} kind="gateway" />,
            },
            {
              key: 'alarms',
              label: '告警记录',
              children: (
                <AlarmTable
                  scope={`industry-${row.id}`}
                  filter={{ device_id: row.id, status: 'all' }}
                  compact
                />
              ),
            },
          ]}
        />
      )}
    </Drawer>
  );
}

/** 监测仪: industrial gas monitors with latest readings, levels and open alarms. */
export function MonitorsTab() {
  const [open, setOpen] = useState<MonitorRow | null>(null);
  const list = useListQuery({
    key: ['industry', 'monitors'],
    filters: FILTERS,
    load: (f, paging) =>
      listMonitors({
        keywords: f.keywords.trim() || undefined,
        org_id: f.place[0],
        building_id: f.place[1],
        room_id: f.place[2],
        industrial_type: f.type || undefined,
        online: f.online === 'all' ? undefined : f.online === 'online',
        ...paging,
      }),
  });
  return (
    <>
      <ListToolbar list={list} />
      <ListTable
        list={list}
        columns={COLUMNS}
        rowKey="id"
        empty="暂无工业监测仪（在网关登记时选择工业类型 BH-50，并安置到站点的车间或作业区域）"
        cardTitle={(r) => (
          <Flex gap={6} align="center">
            {r.ser_num}
            {worstLevel(r) && <Tag color={LEVEL_COLORS[worstLevel(r)!]}>{r.desc || placeText(r)}</Tag>}
          </Flex>
        )}
        actions={(r) => <RowAction onClick={() => setOpen(r)}>详情</RowAction>}
        actionsWidth={70}
      />
      <MonitorDrawer row={open} onClose={() => setOpen(null)} />
    </>
  );
}
