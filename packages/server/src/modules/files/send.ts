/**
 * Serving a stored file so that nothing in it runs in the console's origin: the type is the
 * one the server decided when storing it (never sniffed), `nosniff`, a `Content-Disposition`,
 * and `Content-Security-Policy: sandbox` so even a page opened directly is an opaque origin
 * with no script. Range requests (video seek) answer 206; the body is streamed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { storage, type ByteRange } from './storage.ts';

/** Types a browser may show inline; anything else is sent as an attachment. */
const INLINE = /^(image\/(jpeg|png|webp|gif)|video\/(mp4|webm)|audio\/(mpeg|mp4|webm|ogg))$/;

/** `bytes=a-b` / `bytes=a-` / `bytes=-n` of a file of `total` bytes; null: whole file; 'bad': unsatisfiable. */
export function parseRange(header: string | undefined, total: number): ByteRange | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // several ranges or junk: the whole file
  let start: number;
  let end: number;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'bad';
    start = Math.max(0, total - n);
    end = total - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? total - 1 : Math.min(Number(m[2]), total - 1);
  }
  if (start >= total || start > end) return 'bad';
  return { start, end };
}

export interface SendOptions {
  /** The name the browser saves it under. */
  filename: string;
  /** Shown in the page (img/video) rather than downloaded; only for image/video/audio types. */
  inline?: boolean;
  /** Cache-Control; private by default. */
  cache?: string;
}

/** Streams stored file `key` as the answer of a `raw` route. */
export async function sendStored(
  ctx: Pick<AppContext, 'config'>,
  req: FastifyRequest,
  reply: FastifyReply,
  key: string,
  opts: SendOptions,
) {
  const store = storage(ctx);
  const st = await store.stat(key);
  if (!st) throw notFound('文件不存在');
  const range = parseRange(req.headers.range, st.size);
  if (range === 'bad') {
    reply.code(416).header('content-range', `bytes */${st.size}`).send();
    return;
  }
  const f = await store.get(key, range ?? undefined);
  if (!f) throw notFound('文件不存在');
  const inline = opts.inline && INLINE.test(st.contentType);
  reply
    .code(range ? 206 : 200)
    .header('content-type', inline ? st.contentType : 'application/octet-stream')
    .header('content-length', f.size)
    .header('accept-ranges', 'bytes')
    .header('content-disposition', disposition(inline ? 'inline' : 'attachment', opts.filename))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', opts.cache ?? 'private, max-age=300');
  if (range) reply.header('content-range', `bytes ${range.start}-${range.end}/${st.size}`);
  return reply.send(f.stream);
}

/** A download name that survives every browser: ASCII fallback plus RFC 5987 UTF-8. */
export const attachment = (name: string) => disposition('attachment', name);

/** RFC 6266 with an ASCII fallback and the UTF-8 name (Chinese file names). */
export function disposition(kind: 'inline' | 'attachment', name: string) {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
