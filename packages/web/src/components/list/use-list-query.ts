import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type Envelope } from '@se/core';
import {
  keepPreviousData,
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { PaginationProps } from 'antd';
import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import { matchPath, useLocation, useNavigationType, useSearchParams } from 'react-router';
import { PageRouteContext } from '../../navigation/page-route.ts';
import { loadOrThrow } from '../feedback.ts';
import { blankFilters, type FilterFields } from './filters.tsx';

/** What a list endpoint answers: one page of rows and how many there are in all. */
export interface RowsPage<Row> {
  list: Row[];
  total: number;
  /** `total` is an estimate (a large list, issue 14): it is shown as 约 N 条. */
  estimated?: boolean;
}

/** How a list's total reads: 共 N 条, or 约 N 条 when the server only estimated it. */
export const totalText = (total: number, estimated?: boolean) => `${estimated ? '约' : '共'} ${total} 条`;

/** SPEC §9 pager: sizes 10–100, default 10, size changer shown. */
const PAGER_PRESET = {
  pageSizeOptions: PAGE_SIZES.map(String),
  showSizeChanger: true,
  showQuickJumper: true,
} satisfies PaginationProps;

export interface ListOptions<F, P extends RowsPage<unknown>> {
  /** React Query key of the list; invalidating it (or a prefix of it) loads it again. */
  key: QueryKey;
  filters: FilterFields<F>;
  /** One page of rows for the applied filters (an API call; errors are shown by the kit). */
  load: (filters: F, paging: { page: number; page_size: number }) => Promise<Envelope<P>>;
  /** Prefix of this list's URL parameters, when two lists share one route (the users tabs). */
  param?: string;
  /** Polling: how long until the next load, or false (see React Query's refetchInterval). */
  refetchInterval?: (data: P | undefined) => number | false;
  /**
   * Keeps the state in the component instead of the URL: for a list inside a drawer, tab or
   * dialog, whose state must not leak into (or reset with) the page's URL. Fixed for a list's life.
   */
  local?: boolean;
}

export interface ListQuery<F, P extends RowsPage<unknown>> {
  filters: FilterFields<F>;
  /** The inputs as typed, not yet searched. */
  draft: F;
  setDraft: (patch: Partial<F>) => void;
  /** The filters of the rows shown (from the URL). */
  applied: F;
  /** Whether the applied filters narrow the list (for the empty state's wording). */
  filtered: boolean;
  /** The applied filters as URL text: changes exactly when a new search is applied. */
  search: string;
  /** A new search with the draft (and `patch`), from page 1 (SPEC §2); 查询. */
  apply: (patch?: Partial<F>) => void;
  /** Blank inputs and a blank search from page 1; 重置. */
  reset: () => void;
  page: number;
  pageSize: number;
  /** Props for an antd Table's `pagination` or a Pagination (SPEC §9 sizes). */
  pagination: PaginationProps;
  query: UseQueryResult<P>;
  rows: P['list'];
  total: number;
  /** The total is an estimate (约 N 条). */
  estimated: boolean;
  /** Loads every list under `key` again (after a change). */
  refresh: () => void;
}

type Encoded = Record<string, string>;

function encode<F>(fields: FilterFields<F>, values: F): Encoded {
  const out: Encoded = {};
  for (const k in fields) {
    const text = fields[k].encode(values[k]);
    if (text !== undefined) out[k] = text;
  }
  return out;
}

function decode<F>(fields: FilterFields<F>, params: URLSearchParams, prefix: string): F {
  const out = blankFilters(fields);
  for (const k in fields) {
    const text = params.get(prefix + k);
    if (text !== null) out[k] = fields[k].decode(text);
  }
  return out;
}

type SetParams = (next: URLSearchParams, replace: boolean) => void;

/** A local list's parameters: the same encoding as the URL's, held in state. */
function useLocalParams(): [URLSearchParams, SetParams] {
  const [params, setParams] = useState(() => new URLSearchParams());
  return [params, (next) => setParams(next)];
}

/**
 * The URL parameters of the page a list is on. A kept-alive page (SPEC §2) stays mounted while
 * another route is shown: it keeps reading its own parameters then, and when it is shown again
 * by a link without them (the menu), it gets back the search it had.
 */
function usePageParams(names: string[]): [URLSearchParams, SetParams] {
  const route = useContext(PageRouteContext);
  const { pathname } = useLocation();
  const navigation = useNavigationType();
  const [url, setUrl] = useSearchParams();
  const kept = useRef<URLSearchParams | null>(null);
  // The URL this list wrote last: what it shows then is meant, not to be restored.
  const wrote = useRef<string | null>(null);
  const own = (p: URLSearchParams) => names.some((n) => p.has(n));

  let params = url;
  let restored = false;
  if (kept.current && route && !matchPath(route.path, pathname)) {
    params = kept.current;
  } else if (
    kept.current &&
    navigation !== 'POP' &&
    !own(url) &&
    own(kept.current) &&
    url.toString() !== wrote.current
  ) {
    params = new URLSearchParams(url);
    for (const n of names) {
      const value = kept.current.get(n);
      if (value !== null) params.set(n, value);
    }
    restored = true;
  }
  kept.current = params;

  const restore = restored ? params.toString() : null;
  const write: SetParams = (next, replace) => {
    wrote.current = next.toString();
    setUrl(next, { replace });
  };
  useEffect(() => {
    if (restore !== null) write(new URLSearchParams(restore), true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a search is restored
  }, [restore]);
  return [params, write];
}

const positive = (text: string | null): number | undefined => {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * A list screen's state: filters (draft and applied), page and page size, all kept in the URL
 * (so a list can be linked and the back button restores it), and its rows through React Query.
 * A new search or page size starts at page 1; a page emptied by deletes steps back to the last.
 */
export function useListQuery<F, P extends RowsPage<unknown>>(o: ListOptions<F, P>): ListQuery<F, P> {
  const { filters: fields, param: prefix = '' } = o;
  const queryClient = useQueryClient();
  const names = [...Object.keys(fields), 'page', 'size'].map((k) => prefix + k);
  // `local` is fixed for a list's life, so the hooks called stay the same.
  const useParams = o.local ? useLocalParams : usePageParams;
  const [params, setParams] = useParams(names);

  const applied = useMemo(() => decode(fields, params, prefix), [fields, params, prefix]);
  const encoded = encode(fields, applied);
  const search = new URLSearchParams(encoded).toString();
  const filtered = search !== '';
  const page = positive(params.get(`${prefix}page`)) ?? 1;
  const sizeParam = positive(params.get(`${prefix}size`));
  const pageSize = PAGE_SIZES.find((s) => s === sizeParam) ?? DEFAULT_PAGE_SIZE;

  const [draft, setDraftState] = useState(applied);
  // Back, forward or a link: the inputs follow the URL.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `search` stands for `applied`
  useEffect(() => setDraftState(applied), [search]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: o.key });
  const query = useQuery<P>({
    queryKey: [...o.key, search, page, pageSize],
    queryFn: () => loadOrThrow(() => o.load(applied, { page, page_size: pageSize })),
    placeholderData: keepPreviousData,
    refetchInterval: o.refetchInterval ? (q) => o.refetchInterval!(q.state.data) : undefined,
  });

  /** Writes this list's part of the URL; other parameters (a tab, another list) stay. */
  const go = (values: F, nextPage: number, nextSize: number, replace = false) => {
    const next = new URLSearchParams(params);
    for (const n of names) next.delete(n);
    for (const [k, v] of Object.entries(encode(fields, values))) next.set(prefix + k, v);
    if (nextPage !== 1) next.set(`${prefix}page`, String(nextPage));
    if (nextSize !== DEFAULT_PAGE_SIZE) next.set(`${prefix}size`, String(nextSize));
    // 查询 with an unchanged search still asks the server again (with whatever shares the key).
    if (next.toString() === params.toString()) refresh();
    else setParams(next, replace);
  };

  const apply = (patch: Partial<F> = {}) => {
    const values = { ...draft, ...patch };
    setDraftState(values);
    go(values, 1, pageSize);
  };

  const data = query.data;
  useEffect(() => {
    if (!data || data.list.length > 0 || data.total === 0 || page === 1) return;
    const last = Math.max(1, Math.ceil(data.total / pageSize));
    if (last < page) go(applied, last, pageSize, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a page arrives
  }, [data]);

  return {
    filters: fields,
    draft,
    setDraft: (patch) => setDraftState((d) => ({ ...d, ...patch })),
    applied,
    filtered,
    search,
    apply,
    reset: () => {
      const blank = blankFilters(fields);
      setDraftState(blank);
      go(blank, 1, pageSize);
    },
    page,
    pageSize,
    pagination: {
      ...PAGER_PRESET,
      current: page,
      pageSize,
      total: data?.total ?? 0,
      showTotal: (total) => totalText(total, data?.estimated),
      onChange: (nextPage, nextSize) => go(applied, nextSize !== pageSize ? 1 : nextPage, nextSize),
    },
    query,
    rows: data?.list ?? [],
    total: data?.total ?? 0,
    estimated: data?.estimated === true,
    refresh,
  };
}
