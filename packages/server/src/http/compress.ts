import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * How API JSON answers are compressed: brotli or gzip as the client's Accept-Encoding asks,
 * from 1 KiB (below that the headers and the work cost more than the bytes saved). Routes
 * opt in (`compress: JSON_COMPRESSION`, see http/route.ts): the `/ws` stream, the web build
 * (already sent as its precompressed .br/.gz) and download files (xlsx, zip, csv) are
 * never compressed on the fly. A route's options replace the plugin's, so they are complete.
 */
export const JSON_COMPRESSION = {
  threshold: 1024,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
};

/** Registers compression before any route (it attaches itself to the routes declared after). */
export async function registerCompression(app: FastifyInstance) {
  // Nothing by default, and no inflating of request bodies (uploads keep their byte caps).
  await app.register(compress, { ...JSON_COMPRESSION, global: false, globalDecompression: false });
}
