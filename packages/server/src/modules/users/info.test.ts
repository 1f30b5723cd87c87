import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '@se/core';
import { TEST_PASSWORD, adminApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: string;
let aliceId: number;
let bobId: number;
let alice: string;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  // alice is a root account (no parent), bob is below her.
  ({ id: aliceId, token: alice } = await t.account('alice', 3, null));
  bobId = (await t.account('bob', 3, aliceId)).id;
});
afterAll(() => t.close());

describe('get-info', () => {
  it('answers the caller own info with empty strings when nothing is stored', async () => {
    const r = await t.get('/api/v1/user/get-info', undefined, { token: alice });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({
      company_name: '',
      company_address: '',
      user_name: 'alice',
      phone_num: '',
      is_delete: false,
    });
  });

  it('lets a user read its descendants but not its ancestors or strangers', async () => {
    expect((await t.get('/api/v1/user/get-info', { user_id: bobId }, { token: alice })).code).toBe(200);
    const bob = await t.login('bob', TEST_PASSWORD);
    expect((await t.get('/api/v1/user/get-info', { user_id: aliceId }, { token: bob })).code).toBe(
      CODE.forbidden,
    );
    expect((await t.get('/api/v1/user/get-info', { user_id: 1 }, { token: alice })).code).toBe(
      CODE.forbidden,
    );
  });

  it('lets develop read anyone, and says 404 for an id that does not exist', async () => {
    expect((await t.get('/api/v1/user/get-info', { user_id: aliceId }, { token: admin })).code).toBe(200);
    expect((await t.get('/api/v1/user/get-info', { user_id: 99999 }, { token: admin })).code).toBe(
      CODE.notFound,
    );
  });

  it('rejects a malformed user_id', async () => {
    const r = await t.get('/api/v1/user/get-info', { user_id: 'abc' }, { token: admin });
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toContain('用户ID');
  });
});

describe('update-info', () => {
  it('saves company name, address and phone, and ignores user_name', async () => {
    const r = await t.post(
      '/api/v1/user/update-info',
      {
        company_name: '清洁科技有限公司',
        company_address: '杭州市西湖区',
        phone_num: '13800138000',
        user_name: 'hacker',
      },
      { token: alice },
    );
    expect(r.code).toBe(200);
    const info = await t.get('/api/v1/user/get-info', undefined, { token: alice });
    expect(info.data).toMatchObject({
      company_name: '清洁科技有限公司',
      company_address: '杭州市西湖区',
      phone_num: '13800138000',
      user_name: 'alice',
    });
  });

  it("takes the profile dialog's user_info object (JSON, or JSON text in a form) and answers data.info", async () => {
    const asJson = await t.post(
      '/api/v1/user/update-info',
      { user_info: { company_name: '西湖保洁', company_address: '杭州市上城区' } },
      { token: alice, json: true },
    );
    expect(asJson.code).toBe(200);
    expect(asJson.data).toMatchObject({
      info: { company_name: '西湖保洁', company_address: '杭州市上城区' },
    });
    const asForm = await t.post(
      '/api/v1/user/update-info',
      { user_info: JSON.stringify({ company_address: '杭州市滨江区', phone_num: '13900000000' }) },
      { token: alice },
    );
    expect(asForm.code).toBe(200);
    const got = await t.get('/api/v1/user/get-info', undefined, { token: alice });
    expect(got.data).toMatchObject({
      company_name: '西湖保洁',
      company_address: '杭州市滨江区',
      phone_num: '13900000000',
      info: { company_name: '西湖保洁', company_address: '杭州市滨江区' },
    });
    const bad = await t.post('/api/v1/user/update-info', { user_info: '{oops' }, { token: alice });
    expect(bad).toMatchObject({ code: 400, message: 'user_info 格式不正确' });
    // Back to what the tests below expect of alice.
    const back = {
      company_name: '清洁科技有限公司',
      company_address: '杭州市西湖区',
      phone_num: '13800138000',
    };
    expect((await t.post('/api/v1/user/update-info', back, { token: alice })).code).toBe(200);
  });

  it('keeps the phone numeric', async () => {
    const r = await t.post('/api/v1/user/update-info', { phone_num: '138-0013' }, { token: alice });
    expect(r).toMatchObject({ code: CODE.badRequest, message: '联系电话只能包含数字' });
  });

  it('refuses to edit a user outside the caller subtree, by user_id or by info id', async () => {
    const bob = await t.login('bob', TEST_PASSWORD);
    const byUser = await t.post(
      '/api/v1/user/update-info',
      { user_id: aliceId, company_name: 'x' },
      { token: bob },
    );
    expect(byUser.code).toBe(CODE.forbidden);
    const aliceInfo = await t.get<{ id: number }>('/api/v1/user/get-info', undefined, { token: alice });
    const byId = await t.post(
      '/api/v1/user/update-info',
      { id: aliceInfo.data.id, company_name: 'x' },
      { token: bob },
    );
    expect(byId.code).toBe(CODE.forbidden);
    const after = await t.get<{ company_name: string }>('/api/v1/user/get-info', undefined, { token: alice });
    expect(after.data.company_name).toBe('清洁科技有限公司');
  });

  it('limits text length', async () => {
    const r = await t.post('/api/v1/user/update-info', { company_name: '公'.repeat(201) }, { token: alice });
    expect(r).toMatchObject({ code: CODE.badRequest, message: '公司名称不能超过200个字符' });
  });

  it('needs a session', async () => {
    expect((await t.post('/api/v1/user/update-info', { company_name: 'x' })).code).toBe(CODE.unauthorized);
  });
});
