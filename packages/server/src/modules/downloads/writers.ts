import fs from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { formatDateTime } from '@se/core';
import { AppError } from '../../errors.ts';
import { CODE } from '@se/core';
import { xlsxStream } from '../devices/spreadsheet.ts';
import type { ExportColumn } from './types.ts';

type Row = Record<string, unknown>;

/** Data rows one sheet can hold: Excel's 1,048,576 minus the header. */
export const XLSX_MAX_ROWS = 1_048_575;

export const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
} as const;

/**
 * A CSV cell. Text that a spreadsheet would read as a formula (=, +, -, @) gets a leading
 * apostrophe: exported descriptions come from users.
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let t: string;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v instanceof Date) t = formatDateTime(v);
  else if (typeof v === 'object') t = JSON.stringify(v);
  else {
    t = String(v);
    if (/^[=+\-@\t\r]/.test(t)) t = `'${t}`;
  }
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/**
 * Rows formatted between two turns of the event loop. A 5,000-row page formatted in one go
 * held every request for 40–60 ms while an export ran (bench:event-loop).
 */
export const FORMAT_SLICE = 500;

/**
 * Passes pages through in slices of at most FORMAT_SLICE rows, counting rows; `onRows` may
 * throw to stop the export.
 */
async function* counted(
  pages: AsyncIterable<Row[]>,
  onRows: (rows: number) => Promise<void> | void,
  max: number,
): AsyncGenerator<Row[]> {
  let n = 0;
  for await (const page of pages) {
    n += page.length;
    if (n > max) {
      throw new AppError(CODE.badRequest, `数据超过 Excel 的 1,048,576 行上限，请缩小筛选范围后重新导出`);
    }
    for (let i = 0; i < page.length; i += FORMAT_SLICE) {
      yield page.length <= FORMAT_SLICE ? page : page.slice(i, i + FORMAT_SLICE);
      // PGlite answers queries without leaving the microtask queue: without this turn of the
      // event loop, an export would hold off every request (and timer) until it finished.
      await yieldToEventLoop();
    }
    await onRows(n);
  }
}

/**
 * Streams `pages` into `file` as .xlsx or CSV (UTF-8 with BOM so Excel reads Chinese) and
 * answers the row count. Memory stays flat: each page is written before the next is read.
 */
export async function writeExport(
  file: string,
  format: 'xlsx' | 'csv',
  sheetName: string,
  columns: ExportColumn[],
  pages: AsyncIterable<Row[]>,
  onRows: (rows: number) => Promise<void> | void,
): Promise<number> {
  let rows = 0;
  const count = (n: number) => {
    rows = n;
    return onRows(n);
  };
  if (format === 'xlsx') {
    // Sheet names: at most 31 characters, none of : \ / ? * [ ].
    const sheet = sheetName.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet1';
    await pipeline(
      xlsxStream(sheet, columns, counted(pages, count, XLSX_MAX_ROWS)),
      fs.createWriteStream(file),
    );
    return rows;
  }
  const out = fs.createWriteStream(file);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
  };
  try {
    await write('\uFEFF' + columns.map((c) => csvCell(c.header)).join(',') + '\r\n');
    const keys = columns.map((c) => c.key);
    for await (const page of counted(pages, count, Number.MAX_SAFE_INTEGER)) {
      let chunk = '';
      for (const r of page) {
        let line = '';
        for (let i = 0; i < keys.length; i++) line += (i ? ',' : '') + csvCell(r[keys[i]!]);
        chunk += line + '\r\n';
      }
      await write(chunk);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  } catch (err) {
    out.destroy();
    throw err;
  }
  return rows;
}
