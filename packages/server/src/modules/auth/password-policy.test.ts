import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, PERMISSION } from '@se/core';
import { adminApp, type TestApp } from '../../test/harness.ts';
import { COMMON_PASSWORDS } from './common-passwords.ts';
import { passwordProblem } from './password-policy.ts';

describe('password policy', () => {
  it('ships a list of a few thousand common passwords, all long enough to pass the length rule', () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThan(3000);
    expect([...COMMON_PASSWORDS].every((p) => p.length >= 8 && p === p.toLowerCase())).toBe(true);
  });

  it('lets ordinary passphrases through', () => {
    for (const pw of ['tea-kettle-river-9', 'password-123', 'Blue7Horse!Stapler', '记得带伞2024夏天']) {
      expect(passwordProblem(pw, { user_name: 'someone', phone_num: '13800000000' }), pw).toBeNull();
    }
  });

  it('refuses keyboard walks and sequences either way', () => {
    for (const pw of ['asdfghjkl', 'lkjhgfdsa', '0987654321', 'ABCDEFGHI', 'poiuytrewq']) {
      expect(passwordProblem(pw), pw).not.toBeNull();
    }
  });
});

describe('a manager creating an account', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => ({ t, admin } = await adminApp()));
  afterAll(() => t.close());

  const add = (user_name: string, password: string, phone_num = '') =>
    t.post(
      '/api/v1/user/add-user',
      { user_name, password, phone_num, permissions: PERMISSION.user },
      { token: admin },
    );

  it('cannot give it a common password, its name or its phone as password', async () => {
    expect(await add('staff_a', '11111111')).toMatchObject({
      code: CODE.badRequest,
      message: '密码过于常见，请换一个更难猜的密码',
    });
    expect(await add('staff_long', 'Staff_Long')).toMatchObject({
      code: CODE.badRequest,
      message: '密码不能与用户名、邮箱或手机号相同',
    });
    expect(await add('staff_c', '13700001111', '13700001111')).toMatchObject({
      code: CODE.badRequest,
      message: '密码不能与用户名、邮箱或手机号相同',
    });
    expect((await add('staff_d', 'tea-kettle-river-9')).code).toBe(200);
  });
});
