import {
  AIR_LEVELS,
  BUILDING_USE,
  CO2_AIRING_PPM,
  ROOM_TYPE,
  formatNumber,
  gasLevel,
  type Gas,
} from '@se/core';
import { Space, Tag, Typography } from 'antd';

const LEVEL_COLOR = { good: 'green', fair: 'gold', poor: 'red' } as const;

export const useLabel = (use: string) => BUILDING_USE[use as keyof typeof BUILDING_USE] ?? use;
export const roomTypeLabel = (type: string) => ROOM_TYPE[type as keyof typeof ROOM_TYPE] ?? type;

export const USE_OPTIONS = Object.entries(BUILDING_USE).map(([value, label]) => ({ value, label }));
export const ROOM_TYPE_OPTIONS = Object.entries(ROOM_TYPE).map(([value, label]) => ({ value, label }));

const fmt = (v: number) => formatNumber(v, Math.abs(v) >= 100 ? 0 : 2);

/** One gas reading with its SPEC §9 level (优/良/差), or — when nothing online reports it. */
export function GasCell({ gas, value, unit = '' }: { gas: Gas; value: number | null; unit?: string }) {
  if (value === null) return <Typography.Text type="secondary">—</Typography.Text>;
  const level = gasLevel(gas, value);
  return (
    <Space size={4}>
      <span>
        {fmt(value)}
        {unit}
      </span>
      <Tag color={LEVEL_COLOR[level]} style={{ marginInlineEnd: 0 }}>
        {AIR_LEVELS[level]}
      </Tag>
    </Space>
  );
}

/** A place's air: CO2 with its level, the other gases when reported; 需通风 above CO2_AIRING_PPM. */
export function AirCell({ row }: { row: { co2: number | null; nh3: number | null; h2s: number | null } }) {
  if (row.co2 === null && row.nh3 === null && row.h2s === null) {
    return <Typography.Text type="secondary">暂无数据</Typography.Text>;
  }
  return (
    <Space size={[8, 2]} wrap>
      {row.co2 !== null && (
        <span>
          CO₂ <GasCell gas="co2" value={row.co2} unit=" ppm" />
          {row.co2 > CO2_AIRING_PPM && (
            <Tag color="orange" style={{ marginInlineStart: 4 }}>
              需通风
            </Tag>
          )}
        </span>
      )}
      {row.nh3 !== null && (
        <span>
          NH₃ <GasCell gas="nh3" value={row.nh3} />
        </span>
      )}
      {row.h2s !== null && (
        <span>
          H₂S <GasCell gas="h2s" value={row.h2s} />
        </span>
      )}
    </Space>
  );
}

export const online = (r: { online: number; devices: number }) =>
  r.devices ? `${r.online} / ${r.devices}` : '—';
export const occupancy = (v: number | null, capacity?: number | null) =>
  v === null ? '—' : capacity ? `${v} / ${capacity}` : String(v);
export const alarmsCell = (n: number) =>
  n > 0 ? <Tag color="red">{n}</Tag> : <Typography.Text type="secondary">0</Typography.Text>;
