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
  'permissions-policy': 'camera=(), microphone=(), geolocation=(self)',
});

/** `mapTileUrl`: the configured map tiles' origin may serve images (the data-centre maps). */
export function securityHeaders(app: FastifyInstance, mapTileUrl?: string) {
  const origin = mapTileUrl && /^https?:/.test(mapTileUrl) ? new URL(mapTileUrl).origin : null;
  const HEADERS = headers(origin ? [origin] : []);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(HEADERS);
    done();
  });
}
