import ExcelJS from 'exceljs';
import { PassThrough, type Readable } from 'node:stream';

/** Reads the first sheet of an .xlsx or a CSV text into rows of cell texts. */
export async function readRows(body: Buffer, contentType: string): Promise<string[][]> {
  // NUL cannot be stored in PostgreSQL text; a cell with one keeps the rest of its text.
  return (await readCells(body, contentType)).map((r) => r.map((c) => c.replaceAll('\u0000', '')));
}

async function readCells(body: Buffer, contentType: string): Promise<string[][]> {
  if (/csv|text\/plain/i.test(contentType)) return parseCsv(body.toString('utf8'));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  if (!ws) return [];
  const rows: string[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    const cells: string[] = [];
    for (let c = 1; c <= ws.columnCount; c++) cells.push(cellText(row.getCell(c).value));
    rows[n - 1] = cells;
  });
  return Array.from(rows, (r) => r ?? []);
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('result' in v) return String(v.result ?? '');
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if (v instanceof Date) return v.toISOString();
  }
  return String(v).trim();
}

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF, an optional BOM. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field.trim());
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(field.trim());
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field.trim());
    rows.push(row);
  }
  return rows;
}

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
