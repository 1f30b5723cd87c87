import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_KINDS } from '@se/core';
import { ADMIN_PASSWORD, testApp, type TestApp } from '../test/harness.ts';
import { pickEncoding } from './compress.ts';

let t: TestApp;
let admin: string;
let webDist: string;
const GW = DEVICE_KINDS.gateway;
const page100 = `${GW.base}/${GW.plural}?page=1&page_size=100`;
// A text asset and its precompressed twin as scripts/build-web.mjs writes them.
const asset = `console.log(${JSON.stringify('西湖'.repeat(800))});\n`;
const assetBr = zlib.brotliCompressSync(asset);

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'se-compress-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>x</title>');
  fs.writeFileSync(path.join(webDist, 'assets/app.js'), asset);
  fs.writeFileSync(path.join(webDist, 'assets/app.js.br'), assetBr);
  t = await testApp({ webDist });
  admin = await t.login('admin', ADMIN_PASSWORD);
  const rows = Array.from({ length: 100 }, (_, i) => `CMP-GW-${i + 1},压缩测试网关${i + 1}号`);
  const imported = await t.app.inject({
    method: 'POST',
    url: `${GW.base}/import-${GW.plural}?mode=all`,
    headers: { 'x-token': admin, 'content-type': 'text/csv' },
    payload: ['序列号,描述', ...rows].join('\n'),
  });
  expect(imported.json<{ code: number }>().code).toBe(200);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { 'x-token': admin, ...(encoding ? { 'accept-encoding': encoding } : {}) },
  });

describe('API answer compression', () => {
  it('sends a 100-row device page brotli-encoded when asked, decoding to the same JSON', async () => {
    const plain = await get(page100);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = plain.json<{ code: number; data: { list: unknown[] } }>();
    expect(json.code).toBe(200);
    expect(json.data.list).toHaveLength(100);

    const br = await get(page100, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(json);

    const gz = await get(page100, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(json);
  });

  it('follows the client’s preferences: br refused by q=0 gets gzip, neither gets the plain answer, Vary either way', async () => {
    const plain = await get(page100);
    expect(plain.headers.vary).toContain('accept-encoding');
    const noBr = await get(page100, 'br;q=0, gzip;q=0.8');
    expect(noBr.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(noBr.rawPayload).toString('utf8'))).toEqual(plain.json());
    const identity = await get(page100, 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.rawPayload.length).toBe(plain.rawPayload.length);
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding(['gzip', 'br'])).toBe('br');
    expect(pickEncoding('GZIP ; q=1')).toBe('gzip');
    expect(pickEncoding('gzip;q=0, deflate')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });

  it('leaves small answers as they are', async () => {
    const small = await get(`${GW.base}/${GW.plural}?page=1&page_size=10&keywords=CMP-GW-100`, 'br');
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json<{ data: { list: unknown[] } }>().data.list).toHaveLength(1);
  });

  it('sends the web build’s precompressed file as it is, not compressed again', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(Buffer.compare(res.rawPayload, assetBr)).toBe(0);
  });
});
