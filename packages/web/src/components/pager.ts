import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@se/core';
import type { PaginationProps } from 'antd';
import { useState } from 'react';

/** SPEC §9 pager: sizes 10–100, default 10, size changer shown. */
export const PAGER_PRESET = {
  pageSizeOptions: PAGE_SIZES.map(String),
  showSizeChanger: true,
  showQuickJumper: true,
  showTotal: (total: number) => `共 ${total} 条`,
} satisfies PaginationProps;

export interface PagerState {
  page: number;
  pageSize: number;
  /** Props for an antd Table's `pagination` or a Pagination. */
  pagination: (total: number) => PaginationProps;
  /** SPEC §2: a new search starts again at page 1. */
  reset: () => void;
}

/** Page and page size of a list; changing the size (like a new search) goes back to page 1. */
export function usePager(initialSize: number = DEFAULT_PAGE_SIZE): PagerState {
  const [{ page, pageSize }, setState] = useState({ page: 1, pageSize: initialSize });
  return {
    page,
    pageSize,
    reset: () => setState((s) => ({ ...s, page: 1 })),
    pagination: (total) => ({
      ...PAGER_PRESET,
      current: page,
      pageSize,
      total,
      onChange: (nextPage, nextSize) =>
        setState(nextSize !== pageSize ? { page: 1, pageSize: nextSize } : { page: nextPage, pageSize }),
    }),
  };
}
