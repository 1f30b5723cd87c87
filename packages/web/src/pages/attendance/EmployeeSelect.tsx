import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { listEmployees } from '../../api/attendance.ts';
import { loadOrThrow } from '../../components/feedback.ts';

/** An employee picked by name or number, searched on the server (在职 only). */
export function EmployeeSelect({
  value,
  onChange,
  allowClear,
  id,
}: {
  value?: number;
  onChange?: (v: number | undefined) => void;
  allowClear?: boolean;
  id?: string;
}) {
  const [keywords, setKeywords] = useState('');
  const { data, isFetching } = useQuery({
    queryKey: ['attendance', 'employee-pick', keywords, value],
    queryFn: () =>
      loadOrThrow(() => listEmployees({ keywords: keywords || undefined, status: 1, page_size: 20 })),
  });
  const options = (data?.list ?? []).map((e) => ({ value: e.id, label: `${e.name}（${e.number}）` }));
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      showSearch={{ filterOption: false, onSearch: setKeywords }}
      options={options}
      loading={isFetching}
      allowClear={allowClear}
      placeholder="输入姓名或工号搜索"
      aria-label="员工"
      notFoundContent={isFetching ? '加载中…' : '没有匹配的员工'}
    />
  );
}
