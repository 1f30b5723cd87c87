import { CODE } from '@se/core';
import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { listToilets } from '../../api/toilets.ts';
import type { FilterField } from '../../components/list/index.ts';

/** SPEC §9: remote select search waits 300 ms after the last key. */
const DEBOUNCE_MS = 300;

export interface PickedToilet {
  id: number;
  name: string;
}

/** A toilet the caller can see, found by name or address as they type. */
export function ToiletPicker({
  value,
  onChange,
  style,
}: {
  value: PickedToilet | null;
  onChange: (toilet: PickedToilet | null) => void;
  style?: React.CSSProperties;
}) {
  const [keywords, setKeywords] = useState('');
  const [options, setOptions] = useState<PickedToilet[]>([]);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    const timer = setTimeout(() => {
      listToilets({ keywords: keywords.trim() || undefined, page: 1, page_size: 20 }).then(
        (res) => {
          if (mine !== seq.current) return;
          setLoading(false);
          setFailed(res.code !== CODE.ok);
          setOptions(res.code === CODE.ok ? res.data.list.map((t) => ({ id: t.id, name: t.name })) : []);
        },
        () => {
          if (mine !== seq.current) return;
          setLoading(false);
          setFailed(true);
        },
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [keywords]);

  // The chosen toilet stays selectable while a search shows others.
  const all = value && !options.some((o) => o.id === value.id) ? [value, ...options] : options;
  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: setKeywords }}
      allowClear
      value={value?.id}
      placeholder="厕所（输入名称搜索）"
      aria-label="厕所"
      loading={loading}
      notFoundContent={loading ? '搜索中…' : failed ? '加载失败，请重试' : '没有匹配的厕所'}
      options={all.map((t) => ({ value: t.id, label: t.name }))}
      onChange={(id) => {
        onChange(id === undefined ? null : (all.find((t) => t.id === id) ?? null));
        setKeywords('');
      }}
      style={style}
    />
  );
}

/** A list filter on one toilet, kept in the URL as `id:name` (the name shows without a lookup). */
export const toiletFilter: FilterField<PickedToilet | null> = {
  initial: null,
  encode: (t) => (t ? `${t.id}:${t.name}` : undefined),
  decode: (s) => {
    const id = Number(s.slice(0, s.indexOf(':')));
    return Number.isInteger(id) && id > 0 ? { id, name: s.slice(s.indexOf(':') + 1) } : null;
  },
  render: ({ value, onChange, mobile }) => (
    <ToiletPicker value={value} onChange={onChange} style={{ width: mobile ? '100%' : 200 }} />
  ),
};
