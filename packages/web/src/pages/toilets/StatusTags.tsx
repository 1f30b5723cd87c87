import { Flex, Tag } from 'antd';
import { statusFlags, type ToiletFlag } from './toilet-text.ts';

export const FLAG_COLORS: Record<ToiletFlag, string> = {
  cleaning: 'processing',
  repair: 'warning',
  alarm: 'error',
};

/** A toilet's status flags as tags; 正常 without any. */
export function StatusTags({ status }: { status: number }) {
  const flags = statusFlags(status);
  if (flags.length === 0) return <Tag color="success">正常</Tag>;
  return (
    <Flex wrap gap={4}>
      {flags.map((f) => (
        <Tag key={f.flag} color={FLAG_COLORS[f.flag]} style={{ marginInlineEnd: 0 }}>
          {f.label}
        </Tag>
      ))}
    </Flex>
  );
}
