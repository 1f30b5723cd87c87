/**
 * The file-storage module: every file a user uploads (organisation logos, media, work-order
 * photos) is kept here, under a key the area chooses ("org/12/logo-<sha>.webp"). Two stores
 * behind one interface:
 *
 * - local (default): `${DATA_DIR}/files/<key>`, written to a temporary name and renamed, so a
 *   crash never leaves half a file under a key;
 * - S3-compatible bucket when `S3_URL` is set (`http(s)://KEY:SECRET@host:port/bucket?region=…`),
 *   so several server copies share their files.
 *
 * Files are streamed in and out; nothing here holds a whole file in memory.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { AppContext } from '../../context.ts';
import { scratchDir } from '../../scratch.ts';

export interface Stored {
  key: string;
  size: number;
  /** Hex SHA-256 of the bytes, for manifests and dedupe. */
  sha256: string;
}

export interface StoredFile {
  stream: Readable;
  /** Bytes in `stream` (the range's length when one was asked for). */
  size: number;
  /** Size of the whole file. */
  total: number;
  contentType: string;
}

/** Inclusive byte range, as HTTP's Range header counts. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStore {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | Readable, opts: { contentType: string }): Promise<Stored>;
  /** The file, or null when no file has the key. */
  get(key: string, range?: ByteRange): Promise<StoredFile | null>;
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  /** Removing a missing key is not an error. */
  remove(key: string): Promise<void>;
}

/** Keys are relative paths of safe segments: no '..', no leading '/', nothing odd. */
export function checkKey(key: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) || key.length > 512) {
    throw new Error(`invalid storage key: ${key}`);
  }
  return key;
}

/** Counts and hashes what passes through. */
function meter() {
  const hash = createHash('sha256');
  let size = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  return { t, done: () => ({ size, sha256: hash.digest('hex') }) };
}

const asStream = (body: Buffer | Readable) => (Buffer.isBuffer(body) ? Readable.from([body]) : body);

export class LocalStore implements FileStore {
  readonly kind = 'local' as const;
  constructor(readonly root: string) {}

  private file(key: string) {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType: string }): Promise<Stored> {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.part`;
    const m = meter();
    try {
      await pipeline(asStream(body), m.t, fs.createWriteStream(tmp));
      await fs.promises.writeFile(`${tmp}.type`, opts.contentType);
      await fs.promises.rename(`${tmp}.type`, `${file}.type`);
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      await fs.promises.rm(`${tmp}.type`, { force: true });
      throw err;
    }
    return { key, ...m.done() };
  }

  async stat(key: string) {
    const file = this.file(key);
    try {
      const st = await fs.promises.stat(file);
      const contentType = await fs.promises
        .readFile(`${file}.type`, 'utf8')
        .catch(() => 'application/octet-stream');
      return { size: st.size, contentType };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredFile | null> {
    const st = await this.stat(key);
    if (!st) return null;
    const r = range ?? { start: 0, end: st.size - 1 };
    const stream = st.size === 0 ? Readable.from([]) : fs.createReadStream(this.file(key), r);
    return { stream, size: Math.max(0, r.end - r.start + 1), total: st.size, contentType: st.contentType };
  }

  async remove(key: string) {
    const file = this.file(key);
    await fs.promises.rm(file, { force: true });
    await fs.promises.rm(`${file}.type`, { force: true });
  }
}

/** `S3_URL`: `http(s)://ACCESS_KEY:SECRET@host:port/bucket[/prefix]?region=…` (path-style). */
export function parseS3Url(url: string) {
  const u = new URL(url);
  const [bucket, ...prefix] = u.pathname.replace(/^\/+/, '').split('/').filter(Boolean);
  if (!bucket) throw new Error('S3_URL needs a bucket: http(s)://KEY:SECRET@host:port/bucket');
  return {
    endpoint: `${u.protocol}//${u.host}`,
    bucket,
    prefix: prefix.length ? prefix.join('/') + '/' : '',
    region: u.searchParams.get('region') ?? 'us-east-1',
    credentials: {
      accessKeyId: decodeURIComponent(u.username),
      secretAccessKey: decodeURIComponent(u.password),
    },
  };
}

export class S3Store implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(url: string) {
    const c = parseS3Url(url);
    this.client = new S3Client({
      endpoint: c.endpoint,
      region: c.region,
      credentials: c.credentials,
      forcePathStyle: true,
    });
    this.bucket = c.bucket;
    this.prefix = c.prefix;
  }

  private k(key: string) {
    return this.prefix + checkKey(key);
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType: string }): Promise<Stored> {
    const m = meter();
    const pass = new PassThrough();
    const feeding = pipeline(asStream(body), m.t, pass);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.k(key), Body: pass, ContentType: opts.contentType },
    });
    await Promise.all([feeding, upload.done()]);
    return { key, ...m.done() };
  }

  async stat(key: string) {
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
      return { size: Number(h.ContentLength ?? 0), contentType: h.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredFile | null> {
    try {
      const o = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.k(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const size = Number(o.ContentLength ?? 0);
      const total = o.ContentRange ? Number(o.ContentRange.split('/')[1]) : size;
      return {
        stream: o.Body as Readable,
        size,
        total,
        contentType: o.ContentType ?? 'application/octet-stream',
      };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async remove(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
  }
}

function missing(err: unknown) {
  if (err instanceof NoSuchKey || err instanceof NotFound) return true;
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

const stores = new WeakMap<object, FileStore>();

/** The app's store: S3 when configured, else `${DATA_DIR}/files` (a temporary dir for in-memory test apps). */
export function storage(ctx: Pick<AppContext, 'config'>): FileStore {
  let s = stores.get(ctx.config);
  if (!s) {
    const { s3Url, dataDir } = ctx.config;
    s = s3Url
      ? new S3Store(s3Url)
      : new LocalStore(dataDir ? path.join(dataDir, 'files') : scratchDir(ctx.config, 'se-files-'));
    stores.set(ctx.config, s);
  }
  return s;
}
