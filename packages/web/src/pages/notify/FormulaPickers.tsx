import type { Envelope, Page } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import { useState, type ReactNode } from 'react';
import { loadOrThrow } from '../../components/feedback.ts';
import { useDebounced } from '../../components/use-debounced.ts';

/**
 * A select whose options come from a list call searched by keyword (debounced). `known`
 * labels the values already chosen that the current search does not return.
 */
export function RemoteSelect<T>({
  queryKey,
  load,
  toOption,
  known = [],
  value,
  onChange,
  multiple,
  placeholder,
  ariaLabel,
  empty = '无匹配结果',
}: {
  queryKey: string;
  load: (keywords: string | undefined) => Promise<Envelope<Page<T>>>;
  toOption: (row: T) => { value: number; label: string };
  known?: { value: number; label: string }[];
  value?: number | number[] | null;
  onChange?: (v: never) => void;
  multiple?: boolean;
  placeholder?: string;
  ariaLabel?: string;
  /** What the dropdown says when nothing matches. */
  empty?: ReactNode;
}) {
  const [search, setSearch] = useState('');
  const keywords = useDebounced(search.trim());
  const list = useQuery({
    queryKey: ['rules', 'picker', queryKey, keywords],
    queryFn: () => loadOrThrow(() => load(keywords || undefined)),
  });
  const options = [...(list.data?.list ?? []).map(toOption)];
  for (const k of known) if (!options.some((o) => o.value === k.value)) options.push(k);
  return (
    <Select
      aria-label={ariaLabel}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      value={value ?? undefined}
      onChange={(v) => onChange?.((v ?? (multiple ? [] : null)) as never)}
      options={options}
      placeholder={placeholder}
      notFoundContent={list.isFetching ? <Spin size="small" /> : empty}
      onBlur={() => setSearch('')}
      style={{ width: '100%' }}
    />
  );
}
