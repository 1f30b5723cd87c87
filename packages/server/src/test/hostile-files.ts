import crypto from 'node:crypto';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';

/**
 * Hostile uploads (issue 12): far cells, zip bombs, wrong types and garbage, built in
 * memory so the fuzz pass, the import tests and bench/uploads.ts post the same files.
 */
export interface HostileFile {
  name: string;
  contentType: string;
  body: Buffer;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MB = 1024 * 1024;

/** A workbook with the template's header row and one cell far away (e.g. `XFD300`). */
export async function farCellXlsx(ref: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('设备');
  ws.addRow(['序列号', '描述', '位置']);
  ws.getCell(ref).value = 'x';
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Excel's column letters of a 1-based column number. */
export function columnName(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

interface ZipEntry {
  name: string;
  /** Raw deflate data, or the stored bytes when `stored`. */
  data: Buffer;
  crc: number;
  size: number;
  stored?: boolean;
}

const deflated = (name: string, text: string | Buffer): ZipEntry => {
  const raw = Buffer.isBuffer(text) ? text : Buffer.from(text);
  return { name, data: zlib.deflateRawSync(raw), crc: zlib.crc32(raw), size: raw.length };
};

/**
 * The fields a local header and its central-directory record share, from the flags to the
 * name length, written from `at` (6 in the local header, 8 in the central record).
 */
function sharedFields(h: Buffer, at: number, e: ZipEntry, size: number, nameLength: number) {
  h.writeUInt16LE(0x0800, at); // names are UTF-8
  h.writeUInt16LE(e.stored ? 0 : 8, at + 2); // stored or deflated
  h.writeUInt32LE(e.crc >>> 0, at + 8);
  h.writeUInt32LE(e.data.length, at + 12);
  h.writeUInt32LE(size, at + 16);
  h.writeUInt16LE(nameLength, at + 20);
}

/** A plain zip archive (no zip64, no data descriptors). `declaredSize` lets an entry lie. */
export function zip(entries: ZipEntry[], declaredSize?: (e: ZipEntry) => number): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const size = declaredSize ? declaredSize(e) : e.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    sharedFields(local, 6, e, size, name.length);
    locals.push(local, name, e.data);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    sharedFields(cd, 8, e, size, name.length);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    offset += 30 + name.length + e.data.length;
  }
  const cdBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(cdBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cdBuf, end]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="设备" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>序列号</t></is></c></row>`;
const SHEET_TAIL = `</sheetData></worksheet>`;

/** The parts of a minimal valid workbook around the given sheet entry. */
const workbookAround = (sheet: ZipEntry, extra: ZipEntry[] = []) => [
  deflated('[Content_Types].xml', CONTENT_TYPES),
  deflated('_rels/.rels', ROOT_RELS),
  deflated('xl/workbook.xml', WORKBOOK),
  deflated('xl/_rels/workbook.xml.rels', WORKBOOK_RELS),
  sheet,
  ...extra,
];

/**
 * A valid .xlsx whose sheet XML inflates to `mb` megabytes of whitespace between two rows
 * (a few hundred KB on the wire); its directory declares the honest small size of the
 * visible rows only, as a bomb would.
 */
export async function bombXlsx(mb: number): Promise<Buffer> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const head = Buffer.from(SHEET_HEAD);
  const tail = Buffer.from(SHEET_TAIL);
  const blank = Buffer.alloc(MB, 0x20);
  let crc = zlib.crc32(head);
  deflate.write(head);
  for (let i = 0; i < mb; i++) {
    crc = zlib.crc32(blank, crc);
    if (!deflate.write(blank)) await new Promise((r) => deflate.once('drain', r));
  }
  crc = zlib.crc32(tail, crc);
  deflate.end(tail);
  await done;
  const sheet = { name: 'xl/worksheets/sheet1.xml', data: Buffer.concat(parts), crc, size: 0 };
  return zip(workbookAround(sheet), (e) => (e === sheet ? head.length + tail.length : e.size));
}

/** A valid .xlsx with `n` extra tiny entries (a directory of thousands of files). */
export function manyEntriesXlsx(n: number): Buffer {
  const sheet = deflated('xl/worksheets/sheet1.xml', SHEET_HEAD + SHEET_TAIL);
  const extra = Array.from({ length: n }, (_, i) => deflated(`xl/media/f${i}.xml`, '<a/>'));
  return zip(workbookAround(sheet, extra));
}

/**
 * A workbook whose sheet XML opens 150,000 cells and closes none (2 MB of incompressible
 * digits, under the ratio cap): a reader that looks for each cell's end by rescanning the
 * rest of the text never finishes.
 */
export function unclosedCellsXlsx(): Buffer {
  const cells = Array.from({ length: 150_000 }, () => `<c><v>${crypto.randomInt(1e6)}`).join('');
  const sheet = deflated('xl/worksheets/sheet1.xml', SHEET_HEAD + '<row r="2">' + cells + SHEET_TAIL);
  return zip(workbookAround(sheet));
}

/** Every hostile file of the fuzz pass (the expensive ones are built once and cached). */
let cached: HostileFile[] | null = null;
export async function hostileFiles(): Promise<HostileFile[]> {
  if (cached) return cached;
  const random = (n: number) => crypto.randomBytes(n);
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), random(4096)]);
  cached = [
    { name: 'one cell at XFD300', contentType: XLSX_TYPE, body: await farCellXlsx('XFD300') },
    { name: 'one cell at XFD1048576', contentType: XLSX_TYPE, body: await farCellXlsx('XFD1048576') },
    {
      name: 'one cell at row 600, column 40',
      contentType: XLSX_TYPE,
      body: await farCellXlsx(`${columnName(40)}600`),
    },
    {
      name: 'one cell at row 1000, column 60',
      contentType: XLSX_TYPE,
      body: await farCellXlsx(`${columnName(60)}1000`),
    },
    { name: 'zip bomb (sheet inflates to 300 MB)', contentType: XLSX_TYPE, body: await bombXlsx(300) },
    { name: 'sheet XML of 150,000 unclosed cells', contentType: XLSX_TYPE, body: unclosedCellsXlsx() },
    { name: 'zip with 5,000 entries', contentType: XLSX_TYPE, body: manyEntriesXlsx(5000) },
    { name: 'PNG renamed .xlsx', contentType: XLSX_TYPE, body: png },
    {
      name: 'legacy .xls',
      contentType: 'application/vnd.ms-excel',
      body: Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), random(2048)]),
    },
    { name: '10 MB of random bytes as .xlsx', contentType: XLSX_TYPE, body: random(10 * MB) },
    { name: '10 MB of random bytes as .csv', contentType: 'text/csv', body: random(10 * MB) },
    {
      name: 'random bytes as octet-stream',
      contentType: 'application/octet-stream',
      body: random(64 * 1024),
    },
    {
      name: 'CSV with a 5 MB line',
      contentType: 'text/csv',
      body: Buffer.from('序列号,描述\nSN-1,' + 'x'.repeat(5 * MB) + '\n'),
    },
    { name: 'CSV of 10 MB of newlines', contentType: 'text/csv', body: Buffer.alloc(10 * MB, 0x0a) },
    { name: 'CSV of 10 MB of commas', contentType: 'text/csv', body: Buffer.alloc(10 * MB, 0x2c) },
    {
      name: 'CSV of 100,000 rows',
      contentType: 'text/csv',
      body: Buffer.from('序列号\n' + 'SN\n'.repeat(100_000)),
    },
    { name: 'empty file', contentType: XLSX_TYPE, body: Buffer.alloc(0) },
    { name: 'empty CSV', contentType: 'text/csv', body: Buffer.alloc(0) },
    { name: 'more than 10 MB', contentType: XLSX_TYPE, body: random(10 * MB + 1) },
  ];
  return cached;
}
