import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, postJson, WebhookError } from './webhook.ts';

// The SSRF guard of docking interfaces and robots: every way of writing an address of this
// host or a private network is refused, literally in the URL or after DNS resolution.

describe('isPrivateAddress', () => {
  const cases: [string, boolean][] = [
    // Plain IPv4.
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    // Plain IPv6.
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['fec0::1', true],
    ['ff02::1', true],
    ['2606:4700:4700::1111', false],
    // IPv4-mapped, dotted and hex.
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::FFFF:7F00:1', true],
    ['::ffff:a00:1', true],
    ['::ffff:192.168.0.1', true],
    ['0:0:0:0:0:ffff:7f00:1', true],
    ['::ffff:808:808', false],
    // IPv4-translated (SIIT).
    ['::ffff:0:7f00:1', true],
    ['::ffff:0:808:808', false],
    // IPv4-compatible (deprecated, still parsed by stacks).
    ['::127.0.0.1', true],
    ['::7f00:1', true],
    ['::a9fe:a9fe', true],
    ['::808:808', false],
    // NAT64 well-known prefix: the translator connects to the embedded IPv4 address.
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::a00:1', true],
    ['64:ff9b::c0a8:101', true],
    ['64:ff9b::808:808', false],
    // Local-use NAT64 prefix: a translator of this network, never a public destination.
    ['64:ff9b:1::7f00:1', true],
    ['64:ff9b:1:808:800:800::', true],
    // 6to4: the relay delivers to the IPv4 address in bits 16-47.
    ['2002:7f00:1::', true],
    ['2002:7f00:1::1', true],
    ['2002:c0a8:101::1', true],
    ['2002:a00:1:1::1', true],
    ['2002:808:808::1', false],
    // Teredo: the client address is stored inverted in the last 32 bits.
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true],
    // Not an address at all: refused rather than guessed.
    ['', true],
    ['not-an-ip', true],
  ];
  it.each(cases)('%s → private: %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});

// A real server on loopback: whatever form of its address a URL uses, it must never be hit.
let server: http.Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    hits++;
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const post = (url: string, allowPrivate = false) =>
  postJson(url, { a: 1 }, {}, { timeoutMs: 2000, allowPrivate });

describe('postJson refuses this host in every spelling', () => {
  const forms = [
    'http://127.0.0.1:PORT/',
    'http://0x7f000001:PORT/',
    'http://2130706433:PORT/',
    'http://127.1:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[::ffff:7f00:1]:PORT/',
    'http://[::127.0.0.1]:PORT/',
    'http://[::7f00:1]:PORT/',
    'http://[64:ff9b::127.0.0.1]:PORT/',
    'http://[64:ff9b:1::7f00:1]:PORT/',
    'http://[2002:7f00:1::]:PORT/',
    'http://[::1]:PORT/',
    // Resolved by DNS: the check applies to the address connected to.
    'http://localhost:PORT/',
  ];
  it.each(forms)('%s', async (form) => {
    const before = hits;
    const err = await post(form.replace('PORT', String(port))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookError);
    expect((err as Error).message).toBe('不允许访问内网或本机地址');
    expect(hits).toBe(before);
  });

  it('reaches the same server when private addresses are allowed (the test is live)', async () => {
    const before = hits;
    const r = await post(`http://[::ffff:7f00:1]:${port}/`, true);
    expect(r.status).toBe(200);
    expect(hits).toBe(before + 1);
  });
});
