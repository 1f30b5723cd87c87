import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, DEVICE_KINDS } from '@se/core';
import { adminApp, type TestApp } from '../test/harness.ts';
import { hostileFiles } from '../test/hostile-files.ts';
import { registry } from './route.ts';

// Issue 12: every route that takes an uploaded file (declared with `upload`, so routes added
// later by any area are swept too) × every hostile file: a clear Chinese refusal within
// 5 s, never a 500.
let t: TestApp;
let admin: string;
beforeAll(async () => ({ t, admin } = await adminApp()));
afterAll(() => t.close());

describe('hostile files on every upload route', () => {
  it('are refused with a Chinese message within 5 s, never a 500', async () => {
    const routes = [...registry.values()].filter((r) => r.upload);
    // Every device kind's import and the employees' at least: a route losing `upload` would
    // escape the sweep.
    expect(routes.filter((r) => /\/import-/.test(r.url)).length).toBe(Object.keys(DEVICE_KINDS).length + 1);
    const files = await hostileFiles();
    const failures: string[] = [];
    for (const r of routes) {
      for (const f of files) {
        const s = performance.now();
        const res = await t.app.inject({
          method: r.method as 'POST',
          url: r.url,
          headers: { 'x-token': admin, 'content-type': f.contentType },
          payload: f.body,
        });
        const ms = performance.now() - s;
        const env = res.json() as { code: number; message: string };
        const what = `${r.url} ← ${f.name}: ${res.statusCode} ${env.code} ${env.message} (${ms.toFixed(0)} ms)`;
        if (res.statusCode !== 200 || !([CODE.badRequest, CODE.tooLarge] as number[]).includes(env.code))
          failures.push(what);
        else if (!/[\u4e00-\u9fff]/.test(env.message ?? '')) failures.push(`${what}: no Chinese message`);
        else if (ms >= 5000) failures.push(`${what}: too slow`);
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('are documented as file bodies with their size cap', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { description?: string } }>>;
    };
    const imports = Object.entries(doc.paths).filter(([p]) => /\/import-(?!template)/.test(p));
    expect(imports.length).toBe(Object.keys(DEVICE_KINDS).length + 1);
    for (const [, ops] of imports) expect(ops.post!.requestBody!.description).toMatch(/最大 10 MB/);
  });
});
