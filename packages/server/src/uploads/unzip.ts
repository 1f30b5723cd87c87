import zlib from 'node:zlib';

/**
 * A refusal of an uploaded file with a Chinese message for the user. Plain Error subclass
 * (no AppError) so it can be thrown inside a worker and recognised by name on the way back.
 */
export class UploadRejected extends Error {
  override name = 'UploadRejected';
}

export interface ZipLimits {
  /** Entries in the central directory. */
  maxEntries: number;
  /** Bytes inflated from all entries read, together. */
  maxTotalBytes: number;
  /** Inflated bytes per compressed byte of one entry (applies above `ratioFloorBytes`). */
  maxRatio: number;
  ratioFloorBytes: number;
}

const MB = 1024 * 1024;

/**
 * Office files are a few dozen entries and inflate 5–30×; a real device sheet of 5,000 rows
 * is a few MB of XML. Bombs are thousands of entries or a 1,000× stream of blanks.
 */
export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 100,
  maxTotalBytes: 50 * MB,
  maxRatio: 200,
  ratioFloorBytes: 1 * MB,
};

const BROKEN = '文件已损坏或不是有效的 .xlsx 文件，请使用导入模板';

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/**
 * Reads a zip archive held in memory without trusting what it declares: the entry count
 * is counted while walking the central directory, and every entry is inflated with a hard
 * output cap (the bytes still allowed in total, or its ratio cap), so inflating stops at
 * the first byte past a limit instead of after the bomb went off. Declared uncompressed
 * sizes are never used.
 */
export class GuardedZip {
  private readonly entries = new Map<string, Entry>();
  private inflated = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly limits: ZipLimits = ZIP_LIMITS,
  ) {
    const eocd = findEndOfDirectory(buf);
    let at = buf.readUInt32LE(eocd + 16);
    const end = at + buf.readUInt32LE(eocd + 12);
    if (end > eocd) throw new UploadRejected(BROKEN);
    let count = 0;
    while (at < end) {
      if (at + 46 > end || buf.readUInt32LE(at) !== 0x02014b50) throw new UploadRejected(BROKEN);
      if (++count > limits.maxEntries) {
        throw new UploadRejected(`压缩包内文件数超过${limits.maxEntries}个，不是有效的导入文件`);
      }
      const flags = buf.readUInt16LE(at + 8);
      const nameLen = buf.readUInt16LE(at + 28);
      const next = at + 46 + nameLen + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
      if (next > end) throw new UploadRejected(BROKEN);
      if (flags & 1) throw new UploadRejected('文件已加密，请取消密码保护后再上传');
      const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
      this.entries.set(name, {
        name,
        method: buf.readUInt16LE(at + 10),
        compressedSize: buf.readUInt32LE(at + 20),
        localOffset: buf.readUInt32LE(at + 42),
      });
      at = next;
    }
  }

  has(name: string) {
    return this.entries.has(name);
  }

  /** The entry's bytes, or null when it is absent. Counts against the limits. */
  read(name: string): Buffer | null {
    const e = this.entries.get(name);
    if (!e) return null;
    const { buf, limits } = this;
    const at = e.localOffset;
    if (at + 30 > buf.length || buf.readUInt32LE(at) !== 0x04034b50) throw new UploadRejected(BROKEN);
    const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
    if (start + e.compressedSize > buf.length) throw new UploadRejected(BROKEN);
    const data = buf.subarray(start, start + e.compressedSize);
    const left = limits.maxTotalBytes - this.inflated;
    let out: Buffer;
    if (e.method === 0) {
      if (data.length > left) throw this.tooBig();
      out = Buffer.from(data);
    } else if (e.method === 8) {
      const byRatio = Math.max(limits.ratioFloorBytes, e.compressedSize * limits.maxRatio);
      const cap = Math.min(left, byRatio);
      try {
        out = zlib.inflateRawSync(data, { maxOutputLength: Math.max(cap, 1) });
      } catch (err) {
        if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') throw new UploadRejected(BROKEN);
        if (cap === left) throw this.tooBig();
        throw new UploadRejected(`文件压缩比异常（超过${limits.maxRatio}倍），疑似压缩炸弹，已拒绝`);
      }
    } else {
      throw new UploadRejected(BROKEN);
    }
    this.inflated += out.length;
    return out;
  }

  private tooBig() {
    return new UploadRejected(
      `文件解压后超过${Math.round(this.limits.maxTotalBytes / MB)} MB，疑似压缩炸弹，已拒绝`,
    );
  }
}

/** The "end of central directory" record: the last 22 bytes plus up to 64 KB of comment. */
function findEndOfDirectory(buf: Buffer): number {
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= stop; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) return i;
  }
  throw new UploadRejected(BROKEN);
}

/** Whether the bytes start like a zip archive (an .xlsx is one). */
export const isZip = (buf: Buffer) => buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50;
