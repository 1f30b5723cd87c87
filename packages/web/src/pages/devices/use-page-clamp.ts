import { useEffect } from 'react';
import type { PagerState } from '../../components/pager.ts';

/**
 * Deleting the last row of the last page (or a filter elsewhere shrinking the list) would
 * leave an empty page with rows before it: step back to the last page that has rows.
 */
export function usePageClamp(pager: PagerState, data: { list: unknown[]; total: number } | undefined): void {
  useEffect(() => {
    if (!data || data.list.length > 0 || data.total === 0 || pager.page === 1) return;
    const last = Math.max(1, Math.ceil(data.total / pager.pageSize));
    if (last < pager.page) pager.pagination(data.total).onChange?.(last, pager.pageSize);
  }, [data, pager]);
}
