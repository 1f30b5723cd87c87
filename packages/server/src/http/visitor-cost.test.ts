import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, DATACENTER_API, PERMISSION } from '@se/core';
import { captchaFor, testApp, type TestApp } from '../test/harness.ts';

// Public sign-up makes anyone a visitor: what a visitor can reach must not cost the server
// more than a normal request, or be limited per account.
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

async function selfRegistered(email: string, user_name: string) {
  await t.post('/api/v1/auth/send-email-captcha', { email, purpose: 'signup' });
  const code = await captchaFor(t, email);
  const pw = 'tea-kettle-river-9';
  const r = await t.post('/api/v1/auth/signup', {
    email,
    email_captcha: code,
    user_name,
    password1: pw,
    password2: pw,
  });
  expect(r.code).toBe(200);
  return t.login(user_name, pw);
}

describe('a self-registered visitor', () => {
  it('cannot register devices or import them', async () => {
    const token = await selfRegistered('v1@example.com', 'visitor_one');
    const add = await t.post('/api/v1/jwb/add-jwb', { ser_num: 'JWB-V1-0001' }, { token });
    expect(add.code).toBe(CODE.forbidden);
    const imp = await t.post('/api/v1/jwb/import-jwbs', 'ser_num\nJWB-V1-0002\n', {
      token,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imp.code).toBe(CODE.forbidden);
  });

  it('gets the data-centre overview at most 30 times a minute; others are not affected', async () => {
    const token = await selfRegistered('v2@example.com', 'visitor_two');
    for (let i = 0; i < 30; i++) {
      expect((await t.get(DATACENTER_API.stOverview, undefined, { token })).code).toBe(200);
    }
    const over = await t.get(DATACENTER_API.stOverview, undefined, { token });
    expect(over.code).toBe(CODE.rateLimited);
    const other = await t.account('visitor_three', PERMISSION.visitor);
    expect((await t.get(DATACENTER_API.stOverview, undefined, { token: other.token })).code).toBe(200);
  });

  it('exports a device list at most 10 times a minute', async () => {
    const token = await selfRegistered('v4@example.com', 'visitor_four');
    for (let i = 0; i < 10; i++) {
      const r = await t.app.inject({
        method: 'GET',
        url: '/api/v1/jwb/export-jwbs',
        headers: { 'x-token': token },
      });
      expect(r.headers['content-type']).toContain('spreadsheetml');
    }
    const over = await t.get('/api/v1/jwb/export-jwbs', undefined, { token });
    expect(over.code).toBe(CODE.rateLimited);
  });
});
