import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { bombXlsx, manyEntriesXlsx, zip } from '../test/hostile-files.ts';
import { parseCsv, readSheet } from './sheet.ts';
import { GuardedZip, UploadRejected } from './unzip.ts';
import { WorkerFailure, WorkerPool } from './worker-pool.ts';

const LIMITS = { maxRows: 5001, maxColumns: 50 };
const entry = (name: string, raw: Buffer) => ({
  name,
  data: zlib.deflateRawSync(raw),
  crc: zlib.crc32(raw),
  size: raw.length,
});
const rejection = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UploadRejected);
    return (err as Error).message;
  }
  throw new Error('not rejected');
};

describe('guarded unzip', () => {
  it('refuses an archive of thousands of entries before inflating any', () => {
    expect(rejection(() => new GuardedZip(manyEntriesXlsx(5000)))).toBe(
      '压缩包内文件数超过100个，不是有效的导入文件',
    );
  });

  it('stops inflating a bomb at its cap, whatever size it declares', async () => {
    const z = new GuardedZip(await bombXlsx(200));
    const before = process.memoryUsage().arrayBuffers;
    expect(rejection(() => z.read('xl/worksheets/sheet1.xml'))).toMatch(/疑似压缩炸弹，已拒绝$/);
    // At most the cap was ever produced, not the 200 MB.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(60 * 1024 * 1024);
  });

  it('refuses an entry inflating far more than any office file does', () => {
    const z = new GuardedZip(zip([entry('a.xml', Buffer.alloc(5 * 1024 * 1024, 0x20))]));
    expect(rejection(() => z.read('a.xml'))).toBe('文件压缩比异常（超过200倍），疑似压缩炸弹，已拒绝');
  });

  it('counts every entry read against the total', () => {
    const raw = Buffer.from(
      Array.from({ length: 900_000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join(''),
    );
    const z = new GuardedZip(zip(Array.from({ length: 60 }, (_, i) => entry(`p${i}.xml`, raw))), {
      maxEntries: 100,
      maxTotalBytes: 50 * 1024 * 1024,
      maxRatio: 200,
      ratioFloorBytes: 1024 * 1024,
    });
    const read = () => {
      for (let i = 0; i < 60; i++) z.read(`p${i}.xml`);
    };
    expect(rejection(read)).toMatch(/解压后超过50 MB/);
  });

  it('refuses truncated and non-zip bytes as a broken file', () => {
    const good = manyEntriesXlsx(1);
    expect(rejection(() => new GuardedZip(good.subarray(0, good.length - 30)))).toMatch(/文件已损坏/);
    expect(rejection(() => new GuardedZip(Buffer.from('PK\u0003\u0004 not really')))).toMatch(/文件已损坏/);
  });
});

async function workbook(fill: (ws: ExcelJS.Worksheet) => void) {
  const wb = new ExcelJS.Workbook();
  fill(wb.addWorksheet('s'));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('sheet reader', () => {
  it('reads what ExcelJS writes: shared and rich strings, numbers, booleans, formulas', async () => {
    const body = await workbook((ws) => {
      ws.addRow(['序列号', '描述', '经度', '开关', '公式']);
      ws.addRow([
        'SN-1',
        { richText: [{ text: '西湖 ' }, { text: '<公厕> & "一号"' }] },
        120.1551,
        true,
        { formula: 'C2*2', result: 240.3102 },
      ]);
      ws.getCell('B4').value = '  隔一行  ';
    });
    expect(readSheet(body, 'xlsx', LIMITS)).toEqual([
      ['序列号', '描述', '经度', '开关', '公式'],
      ['SN-1', '西湖 <公厕> & "一号"', '120.1551', 'true', '240.3102'],
      ['', '隔一行'],
    ]);
  });

  it('refuses a declared range or a cell beyond the limits, naming them', async () => {
    const far = await workbook((ws) => {
      ws.addRow(['序列号']);
      ws.getCell('XFD300').value = 'x';
    });
    expect(rejection(() => readSheet(far, 'xlsx', LIMITS))).toBe(
      '表格范围 A1:XFD300 超出导入范围：最多5001行（含表头）、50列，请删除多余的行列或分批导入',
    );
    const deep = await workbook((ws) => {
      ws.addRow(['序列号']);
      ws.getCell('A5002').value = 'x';
    });
    expect(rejection(() => readSheet(deep, 'xlsx', LIMITS))).toMatch(/最多5001行/);
  });

  it('reads 5,000 rows in well under a second', async () => {
    const body = await workbook((ws) => {
      ws.addRow(['序列号', '描述', '位置', '经度', '纬度', '版本', '地址', '类型']);
      for (let i = 0; i < 5000; i++)
        ws.addRow([`SN-${i}`, `设备${i}`, '杭州', 120.1551, 30.2741, 'v1', 'http://x', 40]);
    });
    const s = performance.now();
    const rows = readSheet(body, 'xlsx', LIMITS);
    expect(performance.now() - s).toBeLessThan(1000);
    expect(rows).toHaveLength(5001);
    expect(rows[5000]).toEqual([
      'SN-4999',
      '设备4999',
      '杭州',
      '120.1551',
      '30.2741',
      'v1',
      'http://x',
      '40',
    ]);
  });

  it('parses CSV as before, and within limits builds nothing for floods of newlines or commas', () => {
    expect(parseCsv('\uFEFFa,"b ""q"", c",d\r\n\r\n x ,"多\n行"\n')).toEqual([
      ['a', 'b "q", c', 'd'],
      [''],
      ['x', '多\n行'],
    ]);
    expect(parseCsv('\n'.repeat(1_000_000) + '序列号\nSN\n', LIMITS)).toEqual([['序列号'], ['SN']]);
    expect(parseCsv(','.repeat(1_000_000), LIMITS)).toEqual([]);
    expect(rejection(() => parseCsv(','.repeat(60) + 'x', LIMITS))).toMatch(/最多5001行（含表头）、50列/);
    expect(rejection(() => parseCsv('SN\n'.repeat(5002), LIMITS))).toMatch(/行数超出导入范围/);
  });
});

describe('worker pool', () => {
  const tasks = new URL(
    'data:text/javascript,' +
      encodeURIComponent(`
        export const echo = (x) => x;
        export const spin = () => { for (;;); };
        export const hog = () => { const a = []; for (;;) a.push(new Array(1e5).fill(Math.random())); };
        export const fail = () => { const e = new Error('拒绝'); e.name = 'UploadRejected'; throw e; };
      `),
  );
  const pool = new WorkerPool(tasks, {
    size: 1,
    budgetMs: 1500,
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
    maxQueue: 2,
  });
  afterAll(() => pool.close());

  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => (e instanceof WorkerFailure ? [e.reason, e.taskError] : e),
    );

  it('terminates a task over its time budget and serves the next one', async () => {
    expect(await pool.run('echo', [1])).toBe(1);
    const s = performance.now();
    expect(await failure(pool.run('spin', []))).toEqual(['budget', undefined]);
    expect(performance.now() - s).toBeLessThan(2500);
    expect(await pool.run('echo', ['再来'])).toBe('再来');
  }, 20_000);

  it('ends a task over its memory cap without touching the server', async () => {
    expect(await failure(pool.run('hog', []))).toEqual(['crash', undefined]);
    expect(await pool.run('echo', [2])).toBe(2);
  }, 20_000);

  it("passes the task's refusal back by name, and refuses work beyond its queue", async () => {
    expect(await failure(pool.run('fail', []))).toEqual(['task', 'UploadRejected']);
    const running = [pool.run('spin', []), pool.run('echo', [3]), pool.run('echo', [4])];
    expect(await failure(pool.run('echo', [5]))).toEqual(['busy', undefined]);
    // The spinning task holds the thread; those queued behind it run out of budget too.
    expect(await Promise.all(running.map(failure))).toEqual([
      ['budget', undefined],
      ['busy', undefined],
      ['busy', undefined],
    ]);
  }, 20_000);
});
