import { GuardedZip, UploadRejected, isZip } from './unzip.ts';

/**
 * Reading of uploaded spreadsheets (.xlsx, .csv) into rows of cell texts, within limits
 * checked before anything is iterated. Runs inside the upload worker (see sheets.ts): this
 * module imports nothing heavy.
 */
export interface SheetLimits {
  /** Highest row number that may hold a value (header included). */
  maxRows: number;
  /** Highest column number that may hold a value. */
  maxColumns: number;
}

export type SheetFormat = 'xlsx' | 'csv';

const TEMPLATE = '请使用导入模板（.xlsx 或 .csv）';

/** Worker entry: the first sheet's non-empty rows; every refusal is an UploadRejected. */
export function readSheet(body: Uint8Array, format: SheetFormat, limits: SheetLimits): string[][] {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (format === 'csv') return parseCsv(new TextDecoder().decode(buf), limits);
  if (buf.length >= 8 && buf.readUInt32BE(0) === 0xd0cf11e0) {
    throw new UploadRejected('不支持旧版 .xls 文件，请在 Excel 中另存为 .xlsx 后再上传');
  }
  if (!isZip(buf)) throw new UploadRejected(`无法读取文件，${TEMPLATE}`);
  return readXlsx(new GuardedZip(buf), limits);
}

const rangeError = (limits: SheetLimits, what: string) =>
  new UploadRejected(
    `表格${what}超出导入范围：最多${limits.maxRows}行（含表头）、${limits.maxColumns}列，请删除多余的行列或分批导入`,
  );

/** "XFD300" → [16384, 300]; null when it is not a cell reference. */
export function cellRef(ref: string): [col: number, row: number] | null {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref);
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + ch.charCodeAt(0) - 64;
  return [col, Number(m[2])];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  if (!s.includes('&') && !s.includes('_x')) return s;
  return s
    .replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (all, e: string) => {
      if (e[0] !== '#') return ENTITIES[e]!;
      const n = e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      return n <= 0x10ffff ? String.fromCodePoint(n) : all;
    })
    .replace(/_x([0-9a-fA-F]{4})_/g, (_all, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * The content of each `<tag …>…</tag>` (null for `<tag/>`) between `from` and `to`. Found
 * with indexOf, and an unclosed element ends the search: a regex with a lazy body would
 * rescan the rest of the text for every unclosed start tag (quadratic on hostile XML).
 */
function* elements(xml: string, tag: string, from = 0, to = xml.length) {
  const open = new RegExp(`<${tag}\\b([^<>]{0,2000}?)(/?)>`, 'g');
  const close = `</${tag}>`;
  open.lastIndex = from;
  for (let m = open.exec(xml); m && m.index < to; m = open.exec(xml)) {
    if (m[2]) {
      yield { attrs: m[1]!, body: null, at: m.index, end: open.lastIndex };
      continue;
    }
    const end = xml.indexOf(close, open.lastIndex);
    if (end < 0 || end > to) return;
    const body = xml.slice(open.lastIndex, end);
    open.lastIndex = end + close.length;
    yield { attrs: m[1]!, body, at: m.index, end: open.lastIndex };
  }
}

/** The text runs of a shared or inline string, phonetic hints left out. */
const textOf = (xml: string) => {
  let s = '';
  let from = 0;
  for (const rph of elements(xml, 'rPh')) {
    s += runs(xml.slice(from, rph.at));
    from = rph.end;
  }
  return unescapeXml(s + runs(xml.slice(from)));
};
const runs = (xml: string) => {
  let s = '';
  for (const t of elements(xml, 't')) s += t.body ?? '';
  return s;
};

const attr = (attrs: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];

/** Where the workbook's first sheet and the shared strings are (xl/… paths). */
function partsOf(zip: GuardedZip) {
  const workbook = zip.read('xl/workbook.xml')?.toString('utf8');
  const rels = zip.read('xl/_rels/workbook.xml.rels')?.toString('utf8') ?? '';
  if (workbook === undefined) throw new UploadRejected(`文件不是有效的 .xlsx 表格，${TEMPLATE}`);
  const target = (id: string | undefined, type: string) => {
    for (const m of rels.matchAll(/<Relationship\b([^<>]{0,2000}?)\/?>/g)) {
      const a = m[1]!;
      if (id ? attr(a, 'Id') === id : attr(a, 'Type')?.endsWith(type)) {
        const t = attr(a, 'Target') ?? '';
        return t.startsWith('/') ? t.slice(1) : `xl/${t}`;
      }
    }
    return undefined;
  };
  const first = /<sheet\b([^<>]{0,2000}?)\/?>/.exec(workbook)?.[1];
  const sheet = target(first ? attr(first, 'r:id') : undefined, '/worksheet') ?? 'xl/worksheets/sheet1.xml';
  const strings = target(undefined, '/sharedStrings') ?? 'xl/sharedStrings.xml';
  return { sheet, strings };
}

/**
 * The first sheet's rows. The sheet's declared `<dimension>` and then every cell holding a
 * value are checked against the limits before they are kept, and only the columns within
 * the limits are materialised: a far cell costs nothing but a refusal.
 */
function readXlsx(zip: GuardedZip, limits: SheetLimits): string[][] {
  const parts = partsOf(zip);
  const xml = zip.read(parts.sheet)?.toString('utf8');
  if (xml === undefined) throw new UploadRejected(`表格中没有工作表，${TEMPLATE}`);
  const dim = /<dimension\b[^<>]{0,2000}?\bref="([^"]*)"/.exec(xml)?.[1];
  const corner = dim ? cellRef(dim.split(':').at(-1)!) : null;
  if (corner && (corner[0] > limits.maxColumns || corner[1] > limits.maxRows)) {
    throw rangeError(limits, `范围 ${dim} `);
  }
  let shared: string[] | null = null;
  const sharedString = (i: number) => {
    if (!shared) {
      const xml = zip.read(parts.strings)?.toString('utf8') ?? '';
      shared = Array.from(elements(xml, 'si'), (e) => textOf(e.body ?? ''));
    }
    return shared[i] ?? '';
  };
  const from = xml.indexOf('<sheetData');
  const to = xml.lastIndexOf('</sheetData>');
  const rows: string[][] = [];
  if (from < 0 || to < from) return rows;
  // Rows and cells in document order: a cell's content is taken up to its own `</c>`.
  const tokens = /<(row|c)\b([^<>]{0,2000}?)(\/?)>/g;
  tokens.lastIndex = from;
  let rowNum = 0;
  let colNum = 0;
  let cells: string[] | null = null;
  for (let m = tokens.exec(xml); m && m.index < to; m = tokens.exec(xml)) {
    if (m[1] === 'row') {
      const r = Number(attr(m[2]!, 'r'));
      rowNum = Number.isInteger(r) && r > 0 ? r : rowNum + 1;
      colNum = 0;
      cells = null;
      continue;
    }
    let body: string | undefined;
    if (!m[3]) {
      const end = xml.indexOf('</c>', tokens.lastIndex);
      if (end < 0) throw new UploadRejected(`文件已损坏，${TEMPLATE}`);
      body = xml.slice(tokens.lastIndex, end);
      tokens.lastIndex = end + 4;
    }
    const a = m[2]!;
    const ref = attr(a, 'r');
    const at = ref ? cellRef(ref) : null;
    colNum = at ? at[0] : colNum + 1;
    if (!body) continue;
    const type = attr(a, 't') ?? 'n';
    const v = /<v>([^<]*)<\/v>/.exec(body)?.[1];
    let text: string;
    if (type === 'inlineStr') text = textOf(body);
    else if (v === undefined) continue;
    else if (type === 's') text = sharedString(Number(v));
    else if (type === 'b') text = v === '1' ? 'true' : 'false';
    else if (type === 'n') text = Number.isFinite(Number(v)) && v.trim() !== '' ? String(Number(v)) : v;
    else text = unescapeXml(v);
    text = text.trim();
    if (text === '') continue;
    const row = at ? at[1] : rowNum;
    if (row > limits.maxRows || colNum > limits.maxColumns)
      throw rangeError(limits, ref ? `单元格 ${ref} ` : '单元格');
    if (!cells || row !== rowNum) {
      rowNum = row;
      cells = rows[row - 1] ??= [];
    }
    while (cells.length < colNum - 1) cells.push('');
    cells[colNum - 1] = text;
  }
  return rows.filter(Boolean).map((r) => Array.from(r, (c) => c ?? ''));
}

/**
 * RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF, an optional BOM. With limits
 * (uploads), empty rows are dropped, and a row past `maxRows` or a value past `maxColumns`
 * refuses the file as soon as it is met, so 10 MB of newlines or commas build nothing.
 */
export function parseCsv(text: string, limits?: SheetLimits): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  const endField = () => {
    const v = field.trim();
    field = '';
    if (!limits || row.length < limits.maxColumns) row.push(v);
    else if (v !== '') throw rangeError(limits, '列数');
  };
  const endRow = () => {
    if (!limits || row.some((c) => c !== '')) {
      rows.push(row);
      if (limits && rows.length > limits.maxRows) throw rangeError(limits, '行数');
    }
    row = [];
  };
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (quoted) {
      if (c === 34) {
        field += s.slice(start, i);
        if (s.charCodeAt(i + 1) === 34) {
          field += '"';
          i++;
          start = i + 1;
        } else {
          quoted = false;
          start = i + 1;
        }
      }
      continue;
    }
    if (c === 34 && field === '' && start === i) {
      quoted = true;
      start = i + 1;
    } else if (c === 44 || c === 10 || c === 13) {
      field += s.slice(start, i);
      endField();
      if (c !== 44) {
        if (c === 13 && s.charCodeAt(i + 1) === 10) i++;
        endRow();
      }
      start = i + 1;
    }
  }
  field += s.slice(start);
  if (field !== '' || row.length) {
    endField();
    endRow();
  }
  return rows;
}
