import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testApp, type TestApp } from '../test/harness.ts';

// Transport hardening: HSTS only over HTTPS, and /ws only for pages of this site.

let direct: TestApp;
let proxied: TestApp;
let directPort: number;
let proxiedPort: number;

beforeAll(async () => {
  direct = await testApp({ allowedOrigins: ['https://console.example.com'] });
  proxied = await testApp({ trustProxy: true });
  await direct.app.listen({ port: 0, host: '127.0.0.1' });
  await proxied.app.listen({ port: 0, host: '127.0.0.1' });
  directPort = (direct.app.server.address() as { port: number }).port;
  proxiedPort = (proxied.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await direct?.close();
  await proxied?.close();
});

const HSTS = 'strict-transport-security';

describe('HSTS', () => {
  it('is not sent over plain HTTP', async () => {
    const res = await direct.app.inject({ url: '/api/v1/site' });
    expect(res.headers[HSTS]).toBeUndefined();
  });

  it('is sent when a trusted proxy says the request came over HTTPS', async () => {
    const res = await proxied.app.inject({ url: '/api/v1/site', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers[HSTS]).toBe('max-age=31536000; includeSubDomains');
    const plain = await proxied.app.inject({ url: '/api/v1/site', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers[HSTS]).toBeUndefined();
  });

  it('ignores X-Forwarded-Proto when the proxy is not trusted', async () => {
    const res = await direct.app.inject({ url: '/api/v1/site', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers[HSTS]).toBeUndefined();
  });
});

/** Opens /ws with the given headers: 'open' or the HTTP status of the refused upgrade. */
function upgrade(port: number, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (err) => reject(err));
  });
}

describe('/ws origin check', () => {
  it('refuses a page of another site (cross-site WebSocket hijacking)', async () => {
    expect(await upgrade(directPort, { origin: 'https://evil.example' })).toBe(403);
    // Same host name, other port: another origin.
    expect(await upgrade(directPort, { origin: 'http://127.0.0.1:1' })).toBe(403);
    expect(await upgrade(directPort, { origin: 'null' })).toBe(403);
  });

  it("accepts the site's own pages, the allowed origins and clients without an Origin", async () => {
    expect(await upgrade(directPort, { origin: `http://127.0.0.1:${directPort}` })).toBe('open');
    expect(await upgrade(directPort, { origin: 'https://console.example.com' })).toBe('open');
    expect(await upgrade(directPort, {})).toBe('open');
  });

  it("behind a trusted proxy, compares with the proxy's forwarded host and scheme", async () => {
    const fwd = { 'x-forwarded-host': 'toilets.example.com', 'x-forwarded-proto': 'https' };
    expect(await upgrade(proxiedPort, { ...fwd, origin: 'https://toilets.example.com' })).toBe('open');
    expect(await upgrade(proxiedPort, { ...fwd, origin: 'http://toilets.example.com' })).toBe(403);
    expect(await upgrade(proxiedPort, { ...fwd, origin: 'https://evil.example' })).toBe(403);
  });

  it('does not let an untrusted client forge the forwarded host', async () => {
    const fwd = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    expect(await upgrade(directPort, { ...fwd, origin: 'https://evil.example' })).toBe(403);
  });
});
