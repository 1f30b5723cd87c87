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
  /** Bits the caller needs. */
  access: Need;
  /** When the bits depend on the filter (each device kind has its area): overrides `access`. */
  accessFor?(q: Q): Need;
  query: z.ZodType<Q>;
  /**
   * 'xlsx' (default) or 'csv' (UTF-8 with BOM) for exports that may pass Excel's 1,048,576
   * rows, e.g. telemetry.
   */
  format?: 'xlsx' | 'csv';
  /**
   * Columns of the sheet; may depend on the filter (a device kind has its own columns) or,
   * asynchronously, on the data (telemetry: the fields of the chosen devices' kinds).
   */
  columns(q: Q, ctx: AppContext, caller: Caller): ExportColumn[] | Promise<ExportColumn[]>;
  /** Rows page by page (each yield one page), visible to `caller` only. */
  rows(ctx: AppContext, caller: Caller, q: Q): AsyncIterable<Record<string, unknown>[]>;
  /** Expected row count for the progress bar; omitted → progress by rows only. */
  count?(ctx: AppContext, caller: Caller, q: Q): Promise<number>;
  /**
   * Checks made when the job is created, so the request is refused at once (an id the caller
   * cannot see, a user they may not manage). Throw AppError. The runner checks again anyway.
   */
  prepare?(ctx: AppContext, caller: Caller, q: Q): Promise<void>;
  /** The filter in words for the list, e.g. `类型：网关；关键字：西湖`. */
  summary?(q: Q): string;
  /** File name without extension, e.g. `评价记录-2026-11-22`; default: label + date. */
  fileName?(q: Q): string;
  /** Sheet name (xlsx); default: label. */
  sheetName?(q: Q): string;
}

/** Keeps Q when listing definitions of different filters in one array. */
export const defineExport = <Q>(d: ExportDefinition<Q>): ExportDefinition<Q> => d;
