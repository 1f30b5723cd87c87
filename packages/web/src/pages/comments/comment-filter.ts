import {
  COMMENT_FLAGS,
  COMMENT_FLAG_KEYS,
  COMMENT_LEVELS,
  COMMENT_SOURCES,
  type CommentFlag,
  type CommentRow,
  type CommentSource,
} from '@se/core';
import type { CommentQuery } from '../../api/comments.ts';
import { rangeQuery, type Range } from '../../components/list/index.ts';

/** The /comment filters as the operator sets them. */
export interface CommentFilters {
  toilet: { id: number; name: string } | null;
  stars: number[];
  flags: CommentFlag[];
  source: CommentSource | undefined;
  range: Range;
  keywords: string;
  showHidden: boolean;
}

export const NO_FILTERS: CommentFilters = {
  toilet: null,
  stars: [],
  flags: [],
  source: undefined,
  range: null,
  keywords: '',
  showHidden: false,
};

export type CommentSort = NonNullable<CommentQuery['sort']>;

/** The query the filters stand for (list, stats and export alike); blanks are left out. */
export function commentQuery(f: CommentFilters, sort: CommentSort = 'time'): CommentQuery {
  const keywords = f.keywords.trim();
  return {
    toilet_id: f.toilet?.id,
    star_levels: f.stars.length ? [...f.stars].sort((a, b) => a - b) : undefined,
    flags: f.flags.length ? COMMENT_FLAG_KEYS.filter((k) => f.flags.includes(k)) : undefined,
    source: f.source,
    ...rangeQuery(f.range),
    keywords: keywords || undefined,
    show_hidden: f.showHidden || undefined,
    sort: sort === 'time' ? undefined : sort,
  };
}

/** Whether any filter narrows the list (for the empty state's wording). */
export const isFiltered = (f: CommentFilters): boolean =>
  f.toilet !== null ||
  f.stars.length > 0 ||
  f.flags.length > 0 ||
  f.source !== undefined ||
  f.range !== null ||
  f.keywords.trim() !== '';

export const STAR_OPTIONS = [5, 4, 3, 2, 1].map((n) => ({
  value: n,
  label: `${n} 星 · ${COMMENT_LEVELS[n]}`,
}));
export const FLAG_OPTIONS = COMMENT_FLAG_KEYS.map((k) => ({ value: k, label: COMMENT_FLAGS[k] }));
export const SOURCE_OPTIONS = (Object.keys(COMMENT_SOURCES) as CommentSource[]).map((k) => ({
  value: k,
  label: COMMENT_SOURCES[k],
}));

/** The ticks of a review as their words, in the page's order. */
export const flagWords = (c: Pick<CommentRow, CommentFlag>): string[] =>
  COMMENT_FLAG_KEYS.filter((k) => c[k]).map((k) => COMMENT_FLAGS[k]);

/** 扫码 or 评价器 (with the terminal's serial number). */
export function sourceText(c: Pick<CommentRow, 'source' | 'equipment_ser_num'>): string {
  const word = COMMENT_SOURCES[c.source as CommentSource] ?? c.source;
  return c.source === 'terminal' && c.equipment_ser_num ? `${word} ${c.equipment_ser_num}` : word;
}
