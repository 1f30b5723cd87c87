import type { PlayReportRow } from '@se/core';
import { Button } from 'antd';
import { useState } from 'react';
import { playReport } from '../../api/media-players.ts';
import {
  ListView,
  choice,
  dateRange,
  useListQuery,
  type FilterFields,
  type ListColumn,
  type Range,
} from '../../components/list/index.ts';
import { queueExport, useGoTo } from '../downloads/export-toast.tsx';
import { secondsText } from './delivery-text.ts';

interface Search {
  by: 'item' | 'player';
  range: Range;
}

const FILTERS: FilterFields<Search> = {
  by: choice<'item' | 'player'>({
    label: '统计',
    options: [
      { value: 'item', label: '按内容' },
      { value: 'player', label: '按播放器' },
    ],
    width: 170,
  }),
  range: dateRange(),
};

const day = (d: Range, i: 0 | 1) => d?.[i]?.format('YYYY-MM-DD') ?? undefined;
const queryOf = (s: Search) => ({ by: s.by, from: day(s.range, 0), to: day(s.range, 1) });

const COLUMNS: ListColumn<PlayReportRow>[] = [
  { title: '名称', dataIndex: 'name', ellipsis: true, card: false },
  { title: '播放次数', dataIndex: 'plays', width: 110 },
  { title: '播放总时长', dataIndex: 'seconds', width: 150, render: (s: number) => secondsText(s) },
  { title: '最后播放', dataIndex: 'last_at', width: 170, render: (v: string | null) => v ?? '—' },
];

/** 播放统计 (proof of play): plays and seconds per item or per screen, exportable. */
export function ReportTab() {
  const goTo = useGoTo();
  const [exporting, setExporting] = useState(false);
  const list = useListQuery({
    key: ['media', 'plays'],
    filters: FILTERS,
    param: 'plays.',
    load: (f, paging) => playReport({ ...queryOf(f), ...paging }),
  });
  return (
    <ListView
      list={list}
      columns={COLUMNS}
      rowKey="id"
      empty="暂无播放记录"
      cardTitle={(r) => r.name}
      listActions={
        <Button
          loading={exporting}
          onClick={async () => {
            setExporting(true);
            await queueExport('media-plays', queryOf(list.applied), goTo);
            setExporting(false);
          }}
        >
          导出
        </Button>
      }
    />
  );
}
