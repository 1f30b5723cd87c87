import { Flex, Tag } from 'antd';
import type { ReactNode } from 'react';

/**
 * Labels as tags in a wrapping row (a user's roles, a dispenser's warnings), with `children`
 * after them (a "+N" tag); `empty` in their place when there are none.
 */
export function TagList({
  labels,
  color,
  empty,
  children,
}: {
  labels: readonly string[];
  color: string;
  empty: ReactNode;
  children?: ReactNode;
}) {
  if (labels.length === 0) return empty;
  return (
    <Flex wrap gap={4}>
      {labels.map((label) => (
        <Tag key={label} color={color} style={{ marginInlineEnd: 0 }}>
          {label}
        </Tag>
      ))}
      {children}
    </Flex>
  );
}
