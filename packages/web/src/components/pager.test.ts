import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGER_PRESET, usePager } from './pager.ts';

describe('pager', () => {
  it('offers the SPEC §9 sizes with 10 as default and a size changer', () => {
    expect(PAGER_PRESET.pageSizeOptions).toEqual(['10', '20', '30', '40', '50', '100']);
    expect(PAGER_PRESET.showSizeChanger).toBe(true);
    const { result } = renderHook(() => usePager());
    expect(result.current).toMatchObject({ page: 1, pageSize: 10 });
  });

  it('moves between pages, and a page-size change goes back to page 1', () => {
    const { result } = renderHook(() => usePager());
    act(() => result.current.pagination(200).onChange?.(4, 10));
    expect(result.current).toMatchObject({ page: 4, pageSize: 10 });
    act(() => result.current.pagination(200).onChange?.(4, 50));
    expect(result.current).toMatchObject({ page: 1, pageSize: 50 });
  });

  it('starts a new search at page 1', () => {
    const { result } = renderHook(() => usePager());
    act(() => result.current.pagination(200).onChange?.(3, 10));
    act(() => result.current.reset());
    expect(result.current.page).toBe(1);
  });
});
