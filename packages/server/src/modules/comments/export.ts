import {
  AREAS,
  COMMENT_FLAGS,
  COMMENT_FLAG_KEYS,
  COMMENT_SEX,
  COMMENT_SOURCES,
  commentFilter,
  commentLevel,
  formatDateTime,
  type CommentFilter,
  type CommentRow,
} from '@se/core';
import { defineExport } from '../downloads/types.ts';
import * as repo from './repo.ts';
import { filterScope } from './service.ts';

const PAGE = 2000;

/** The filter in words, for 下载中心's list (the file is always newest first). */
export function commentFilterSummary(q: CommentFilter): string {
  const parts: string[] = [];
  if (q.toilet_id) parts.push(`厕所ID：${q.toilet_id}`);
  if (q.equipment_id) parts.push(`评价器ID：${q.equipment_id}`);
  if (q.star_levels?.length) parts.push(`星级：${q.star_levels.join('、')}`);
  if (q.flags?.length) parts.push(`选项：${q.flags.map((f) => COMMENT_FLAGS[f]).join('、')}`);
  if (q.source) parts.push(`来源：${COMMENT_SOURCES[q.source]}`);
  if (q.start) parts.push(`开始：${q.start}`);
  if (q.end) parts.push(`结束：${q.end}`);
  if (q.keywords) parts.push(`关键字：${q.keywords}`);
  if (q.show_hidden) parts.push('含已隐藏');
  return parts.join('；') || '全部';
}

const sheetRow = (c: CommentRow) => ({
  id: c.id,
  created_at: c.created_at,
  toilet_name: c.toilet_name,
  star_level: c.star_level,
  level: commentLevel(c.star_level),
  ...Object.fromEntries(COMMENT_FLAG_KEYS.map((k) => [k, c[k] ? '是' : ''])),
  content: c.content,
  sex: c.sex ? (COMMENT_SEX[c.sex as keyof typeof COMMENT_SEX] ?? '') : '',
  source: COMMENT_SOURCES[c.source as keyof typeof COMMENT_SOURCES] ?? c.source,
  equipment_ser_num: c.equipment_ser_num,
  hidden: c.is_delete ? '已隐藏' : '',
});

/**
 * 评价记录: the reviews /comment shows for the same filter, newest first, in pages read by
 * (created_at, id) so a deep export costs the same per page as the first.
 */
export const commentsExport = defineExport<CommentFilter>({
  name: 'comments',
  label: '评价记录',
  access: AREAS.smartToilet.permission,
  query: commentFilter,
  columns: () => [
    { header: 'ID', key: 'id', width: 10 },
    { header: '时间', key: 'created_at', width: 20 },
    { header: '厕所', key: 'toilet_name', width: 24 },
    { header: '星级', key: 'star_level', width: 6 },
    { header: '评价', key: 'level', width: 6 },
    ...COMMENT_FLAG_KEYS.map((k) => ({ header: COMMENT_FLAGS[k], key: k, width: 8 })),
    { header: '内容', key: 'content', width: 60 },
    { header: '性别', key: 'sex', width: 6 },
    { header: '来源', key: 'source', width: 8 },
    { header: '评价器', key: 'equipment_ser_num', width: 18 },
    { header: '状态', key: 'hidden', width: 8 },
  ],
  async prepare(ctx, caller, q) {
    await filterScope(ctx, caller, q);
  },
  async count(ctx, caller, q) {
    const scope = await filterScope(ctx, caller, q);
    return repo.countComments(ctx.db, { ...q, scope });
  },
  async *rows(ctx, caller, q) {
    const scope = await filterScope(ctx, caller, q);
    let after: { created_at: string; id: number } | null = null;
    for (;;) {
      const page = await repo.exportPage(ctx.db, { ...q, scope }, after, PAGE);
      if (page.length === 0) return;
      yield page.map(sheetRow);
      if (page.length < PAGE) return;
      const last = page[page.length - 1]!;
      after = { created_at: last.cursor, id: last.id };
    }
  },
  summary: commentFilterSummary,
  fileName: () => `评价记录-${formatDateTime(Date.now()).slice(0, 10)}`,
});
