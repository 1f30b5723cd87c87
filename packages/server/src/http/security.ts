import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every response. The web app loads no third-party code, so the
 * policy is strict: scripts only from this origin; antd injects styles, hence 'unsafe-inline'
 * for style-src only.
 */
const headers = (imgSrc: string[]): Record<string, string> => ({
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...imgSrc].join(' '),
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  // The console's own pages may use the camera (扫码 on /add-maintenance-record); no frame may.
  'permissions-policy': 'camera=(self), microphone=(), geolocation=(self)',
});

const HSTS = 'max-age=31536000; includeSubDomains';

/** `mapTileUrl`: the configured map tiles' origin may serve images (the data-centre maps). */
export function securityHeaders(app: FastifyInstance, mapTileUrl?: string) {
  const origin = mapTileUrl && /^https?:/.test(mapTileUrl) ? new URL(mapTileUrl).origin : null;
  const HEADERS = headers(origin ? [origin] : []);
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(HEADERS);
    // Fastify reads X-Forwarded-Proto only with trustProxy, so a client cannot claim HTTPS;
    // over plain HTTP the header would be ignored anyway, and it pins browsers to HTTPS.
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}

/**
 * Whether a browser page of `origin` may open a connection to this request's server: the
 * site's own origin (host and scheme as Fastify resolves them, i.e. the forwarded ones only
 * with trustProxy) or one of the configured `allowed` origins. Origins compare as URL
 * origins, so a default port written out or left away makes no difference.
 */
export function sameSiteOrigin(
  origin: string,
  req: { protocol: string; host: string },
  allowed: readonly string[],
): boolean {
  let o: string;
  try {
    o = new URL(origin).origin;
  } catch {
    return false;
  }
  // 'null' (sandboxed frames, file pages) parses to the opaque origin "null".
  if (o === 'null') return false;
  if (allowed.includes(o)) return true;
  try {
    return new URL(`${req.protocol}://${req.host}`).origin === o;
  } catch {
    return false;
  }
}
