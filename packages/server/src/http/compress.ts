import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * How API JSON answers are compressed: brotli or gzip as the client's Accept-Encoding asks,
 * from 1 KiB (below that the headers and the work cost more than the bytes saved). Routes
 * opt in (`onSend: compressJson`, see http/route.ts): the `/ws` stream, the web build
 * (already sent as its precompressed .br/.gz) and download files (xlsx, zip, csv) are
 * never compressed on the fly.
 *
 * One synchronous call an answer, at the fastest settings (brotli quality 1, gzip level 1),
 * on the answer the route already holds whole. @fastify/compress piped each answer through a
 * zlib stream at brotli quality 4: a browser's dealer paging its devices got half the answers
 * a second of a client asking for none (every request of a page list on the event loop's
 * one core; answers still 4-5 times smaller at quality 1 than sent as they are).
 */
export const JSON_COMPRESSION_THRESHOLD = 1024;

const BROTLI = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};
const GZIP = { level: 1 };

/** The encoding to send under an Accept-Encoding header: br, else gzip, else none (q=0 refuses). */
export function pickEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part
      .toLowerCase()
      .split(';')
      .map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br') || accepted.has('*')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** onSend of a JSON route: the answer compressed when it is large enough and the client accepts it. */
export function compressJson(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, p: unknown) => void,
) {
  if (
    (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
    reply.hasHeader('content-encoding') ||
    // A string's UTF-8 bytes are at least its length: only a short one is measured (a chart's
    // answer of tens of KB was counted byte by byte on every request).
    (payload.length < JSON_COMPRESSION_THRESHOLD && Buffer.byteLength(payload) < JSON_COMPRESSION_THRESHOLD)
  ) {
    done(null, payload);
    return;
  }
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
  const encoding = pickEncoding(req.headers['accept-encoding']);
  if (!encoding) {
    done(null, payload);
    return;
  }
  const body = encoding === 'br' ? zlib.brotliCompressSync(payload, BROTLI) : zlib.gzipSync(payload, GZIP);
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  done(null, body);
}
