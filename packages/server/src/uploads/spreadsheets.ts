import { badRequest, rateLimited } from '../errors.ts';
import type { SheetFormat, SheetLimits } from './sheet.ts';
import { WorkerFailure, WorkerPool } from './worker-pool.ts';

/** Body cap of the spreadsheet upload routes (the rest of the API keeps 1 MB). */
export const SHEET_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/**
 * One thread, reused: imports are rare and a normal one parses in well under a second. The
 * budget leaves a second of the 5 s promised to the user for the rows' validation and SQL.
 */
const pool = new WorkerPool(new URL('./sheet.ts', import.meta.url), {
  size: 1,
  budgetMs: 4000,
  resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  maxQueue: 4,
});

export const sheetFormatOf = (contentType: string): SheetFormat =>
  /csv|text\/plain/i.test(contentType) ? 'csv' : 'xlsx';

/**
 * The first sheet of an uploaded .xlsx or .csv as its non-empty rows, read in the upload
 * thread within `limits` (see sheet.ts); every refusal is a 400 with a Chinese message.
 */
export async function readUploadedSheet(
  body: Buffer,
  contentType: string,
  limits: SheetLimits,
): Promise<string[][]> {
  try {
    return await pool.run<string[][]>('readSheet', [body, sheetFormatOf(contentType), limits]);
  } catch (err) {
    if (!(err instanceof WorkerFailure)) throw err;
    if (err.reason === 'task' && err.taskError === 'UploadRejected') throw badRequest(err.message);
    if (err.reason === 'busy') throw rateLimited('正在处理其他上传的文件，请稍后再试');
    if (err.reason === 'task') throw badRequest('无法读取文件，请使用导入模板（.xlsx 或 .csv）');
    throw badRequest('文件过大或格式异常，无法在限定时间和内存内读取，请使用导入模板（.xlsx 或 .csv）');
  }
}

/** Ends the upload thread (tests that measure the process, shutdown). */
export const closeSheetReader = () => pool.close();
