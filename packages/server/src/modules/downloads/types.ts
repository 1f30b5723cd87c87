import type { z } from 'zod';
import type { Need } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';

/** One column of an exported sheet. */
export interface ExportColumn {
  header: string;
  key: string;
  width?: number;
}

/**
 * An export the download centre can run (modules/downloads/registry.ts lists them). The job
 * runner parses `params` with `query`, checks `access` against the caller who asked, and
 * streams `rows` (pages of rows, already filtered to what the caller may see) into a file.
 */
export interface ExportDefinition<Q = unknown> {
  /** Stable id used by POST create's `name`, e.g. 'comments'. */
  name: string;
  /** Chinese label shown in 下载中心, e.g. '评价记录'. */
  label: string;
  access: Need;
  query: z.ZodType<Q>;
  /** Columns of the sheet; may depend on the filter (a device kind has its own columns). */
  columns(q: Q): ExportColumn[];
  /** Rows page by page (each yield one page), visible to `caller` only. */
  rows(ctx: AppContext, caller: Caller, q: Q): AsyncIterable<Record<string, unknown>[]>;
  /** Expected row count for the progress bar; omitted → progress by pages only. */
  count?(ctx: AppContext, caller: Caller, q: Q): Promise<number>;
  /** File name without extension, e.g. `评价记录-2026-11-22`; default: label + date. */
  fileName?(q: Q): string;
}

/** Keeps Q when listing definitions of different filters in one array. */
export const defineExport = <Q>(d: ExportDefinition<Q>): ExportDefinition<Q> => d;
