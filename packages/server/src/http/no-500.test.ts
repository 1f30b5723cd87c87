import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApp, type TestApp } from '../test/harness.ts';
import { registry } from './route.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => ({ t, admin } = await adminApp()));
afterAll(() => t.close());

// Values a careless or hostile client sends in place of every field.
const JUNK: unknown[] = [
  '',
  ' ',
  'abc',
  '-1',
  '0',
  '1.5',
  '99999999999999999999',
  "' OR 1=1 --",
  '%',
  '\u0000',
  '𠮷'.repeat(300),
  'true',
  '[1,2]',
  '{"a":1}',
];

describe('no input makes any API answer 500', () => {
  it('survives junk in every field of every route, signed in as develop', async () => {
    const routes = [...registry.values()].filter((r) => r.url.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const r of routes) {
      // The field names the route's schemas know, plus one they do not.
      const fields = new Set<string>(['id', 'user_id', 'page', 'page_size', 'unknown_field']);
      for (const s of [r.body, r.query]) {
        const shape = (s as { shape?: Record<string, unknown> } | undefined)?.shape;
        if (shape) for (const k of Object.keys(shape)) fields.add(k);
      }
      for (const junk of JUNK) {
        const payload = Object.fromEntries([...fields].map((f) => [f, junk]));
        const res =
          r.method === 'GET'
            ? await t.get(r.url, payload, { token: admin })
            : await t.post(r.url, payload as Record<string, unknown>, { token: admin });
        if (res.code === 500 || res.res.statusCode >= 500)
          failures.push(`${r.method} ${r.url} ← ${JSON.stringify(junk)}: ${res.message}`);
      }
      // JSON bodies with the wrong shape entirely.
      if (r.method === 'POST') {
        for (const body of ['[]', '"text"', '123', 'null', '{"id":{"$gt":0}}']) {
          const res = await t.post(r.url, body, {
            token: admin,
            headers: { 'content-type': 'application/json' },
          });
          if (res.code === 500) failures.push(`${r.method} ${r.url} ← ${body}: ${res.message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
