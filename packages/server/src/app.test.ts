import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '@se/core';
import { ADMIN_PASSWORD, testApp, type TestApp } from './test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ siteRecordCode: '浙ICP备00000000号', siteRecordUrl: 'https://beian.miit.gov.cn/' });
});
afterAll(() => t.close());

describe('server foundation', () => {
  it('reports health of the database', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', db: { ok: true } });
  });

  it('sends a strict CSP and the other security headers', async () => {
    const res = await t.app.inject({ url: '/api/v1/site' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  });

  it('gives every request its own id', async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({ url: '/api/v1/site' }).then((r) => r.headers['x-request-id']),
      ),
    );
    expect(new Set(ids).size).toBe(20);
  });

  it('answers the site info with the filing record from config', async () => {
    const r = await t.get('/api/v1/site');
    expect(r.data).toEqual({
      name: '智慧环境管理系统',
      version: 'V3.9.3',
      record_code: '浙ICP备00000000号',
      record_url: 'https://beian.miit.gov.cn/',
      map_tile_url: '',
    });
  });

  it('serves an OpenAPI document built from the route schemas', async () => {
    const res = await t.app.inject({ url: '/api/docs/openapi.json' });
    const doc = res.json() as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    expect(doc.paths['/api/v1/auth/login']!.post!.requestBody).toBeDefined();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/auth/get-permission', '/api/v1/user/get-info']),
    );
    const html = await t.app.inject({ url: '/api/docs' });
    expect(html.body).toContain('/api/v1/auth/signup');
  });

  it('keeps developer tools to develop', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    expect((await t.get('/api/v1/dev/outbox', undefined, { token: admin })).code).toBe(200);
    await t.ctx.db.query(`UPDATE users SET permissions = 3 WHERE user_name = 'admin'`);
    t.ctx.sessions.forgetUser(1);
    expect((await t.get('/api/v1/dev/outbox', undefined, { token: admin })).code).toBe(CODE.forbidden);
    await t.ctx.db.query(`UPDATE users SET permissions = 268435455 WHERE user_name = 'admin'`);
    t.ctx.sessions.forgetUser(1);
  });

  it('pages with the spec sizes only', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const r = await t.get('/api/v1/dev/outbox', { page_size: 15 }, { token: admin });
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toContain('10、20、30、40、50、100');
    const ok = await t.get<{ page_size: number }>('/api/v1/dev/outbox', { page_size: 100 }, { token: admin });
    expect(ok.data.page_size).toBe(100);
  });

  it('runs one transaction at a time on PGlite: concurrent requests never interleave', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.ctx.db.transaction(async (tx) => {
          await tx.query(`CREATE TEMP TABLE IF NOT EXISTS tx_probe (n int)`);
          await tx.query(`DELETE FROM tx_probe`);
          await tx.query(`INSERT INTO tx_probe VALUES ($1)`, [i]);
          await new Promise((r) => setTimeout(r, 2));
          const rows = await tx.query<{ n: number }>(`SELECT n FROM tx_probe`);
          return rows.map((r) => r.n);
        }),
      ),
    );
    results.forEach((rows, i) => expect(rows).toEqual([i]));
  });
});
