import ExcelJS from 'exceljs';
import { PassThrough, type Readable } from 'node:stream';
import { parseCsv, type SheetLimits } from '../../uploads/sheet.ts';
import { readUploadedSheet } from '../../uploads/spreadsheets.ts';

/**
 * Reads the first sheet of an uploaded .xlsx or a CSV into its non-empty rows of cell
 * texts, in the upload worker thread within `limits` (uploads/sheet.ts).
 */
export async function readRows(body: Buffer, contentType: string, limits: SheetLimits): Promise<string[][]> {
  // NUL cannot be stored in PostgreSQL text; a cell with one keeps the rest of its text.
  return (await readUploadedSheet(body, contentType, limits)).map((r) =>
    r.map((c) => c.replaceAll('\u0000', '')),
  );
}

export { parseCsv };

const csvCell = (v: unknown) => {
  const t = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};

export function toCsv(rows: unknown[][]): string {
  return '\uFEFF' + rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export interface Column {
  header: string;
  key: string;
  width?: number;
}

/**
 * Streams an .xlsx: rows are written as the pages arrive, so an export of many thousand
 * devices never sits in memory as one workbook.
 */
export function xlsxStream(
  sheetName: string,
  columns: Column[],
  pages: AsyncIterable<Record<string, unknown>[]>,
): Readable {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const ws = wb.addWorksheet(sheetName);
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  (async () => {
    for await (const page of pages) for (const r of page) ws.addRow(r).commit();
    ws.commit();
    await wb.commit();
  })().catch((err: Error) => out.destroy(err));
  return out;
}

export async function xlsxBuffer(sheetName: string, columns: Column[], rows: Record<string, unknown>[]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
