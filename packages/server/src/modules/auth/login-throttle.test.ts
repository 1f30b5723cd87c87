import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CODE, PERMISSION } from '@se/core';
import type { TestApp } from '../../test/harness.ts';
import type * as passwords from './password.ts';

// The real scrypt runs; the wrapper only counts the calls, to see which paths pay for it.
vi.mock('./password.ts', async (importOriginal) => {
  const real = await importOriginal<typeof passwords>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
// The server suites share their workers' modules (vitest.config.ts, isolate: false): an
// earlier file may have loaded the login service with the real verifyPassword, so the app is
// loaded afresh here, after the mock.
vi.resetModules();
const { TEST_PASSWORD, auditOf, testApp } = await import('../../test/harness.ts');
const verifies = vi.mocked((await import('./password.ts')).verifyPassword);

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());
beforeEach(() => {
  verifies.mockClear();
});

const login = (filter: string, password: string, ip: string) =>
  t.post<{ user_id: number }>('/api/v1/auth/login', { filter, password }, { ip });

describe('lock per (account, source)', () => {
  it('five wrong passwords lock the attacker out, the owner from a usual address still gets in', async () => {
    const owner = await t.account('victim_a', PERMISSION.visitor);
    const home = '10.1.0.1';
    expect((await login('victim_a', TEST_PASSWORD, home)).code).toBe(200);

    const attacker = '10.66.0.1';
    for (let i = 0; i < 4; i++) {
      expect((await login('victim_a', 'wrong-password', attacker)).code).toBe(CODE.badRequest);
    }
    const fifth = await login('victim_a', 'wrong-password', attacker);
    expect(fifth.code).toBe(CODE.rateLimited);
    expect(fifth.message).toMatch(/锁定，请15分钟后再试/);
    const right = await login('victim_a', TEST_PASSWORD, attacker);
    expect(right.code).toBe(CODE.rateLimited);
    expect(right.message).toMatch(/请\d+分钟后再试/);

    const ok = await login('victim_a', TEST_PASSWORD, home);
    expect(ok.code).toBe(200);
    expect(ok.data.user_id).toBe(owner.id);
    // Another address the account never used is not locked by the attacker either.
    expect((await login('victim_a', TEST_PASSWORD, '10.2.0.1')).code).toBe(200);
  });

  it('the lock runs out: one address cannot keep the account locked forever', async () => {
    await t.account('victim_b', PERMISSION.visitor);
    const ip = '10.66.0.2';
    for (let i = 0; i < 5; i++) await login('victim_b', 'wrong-password', ip);
    expect((await login('victim_b', TEST_PASSWORD, ip)).code).toBe(CODE.rateLimited);
    await t.ctx.db.query(
      `UPDATE login_failures SET since = since - interval '16 minutes',
              locked_until = locked_until - interval '16 minutes'`,
    );
    expect((await login('victim_b', TEST_PASSWORD, ip)).code).toBe(200);
  });
});

describe('account-wide delay', () => {
  it('wrong passwords from many addresses bring a doubling delay, except from usual addresses', async () => {
    await t.account('victim_c', PERMISSION.visitor);
    const home = '10.3.0.1';
    expect((await login('victim_c', TEST_PASSWORD, home)).code).toBe(200);

    // Ten addresses, one guess each: no address reaches the lock, the account counts them all.
    for (let i = 1; i <= 10; i++) {
      expect((await login('victim_c', 'wrong-password', `10.77.0.${i}`)).code).toBe(CODE.badRequest);
    }
    const seconds: number[] = [];
    for (let i = 11; i <= 14; i++) {
      const r = await login('victim_c', 'wrong-password', `10.77.0.${i}`);
      // The failure that starts a delay is still only a wrong password.
      expect(r.code).toBe(CODE.badRequest);
      const next = await login('victim_c', 'wrong-password', `10.77.1.${i}`);
      expect(next.code).toBe(CODE.rateLimited);
      seconds.push(Number(/请(\d+)秒后再试/.exec(next.message)?.[1]));
      // While delayed, even the right password from a new address waits.
      expect((await login('victim_c', TEST_PASSWORD, `10.77.2.${i}`)).code).toBe(CODE.rateLimited);
      // The owner from their usual address is not delayed.
      expect((await login('victim_c', TEST_PASSWORD, home)).code).toBe(200);
      await t.ctx.db.query(`UPDATE login_throttle SET blocked_until = now() - interval '1 second'`);
    }
    expect(seconds).toEqual([2, 4, 8, 16]);
  });

  it('counts wrong passwords sent at the same time, each one', async () => {
    const v = await t.account('victim_par', PERMISSION.visitor);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => login('victim_par', 'wrong-password', `10.79.0.${i + 1}`)),
    );
    const rows = await t.ctx.db.query<{ failures: number }>(
      `SELECT failures FROM login_throttle WHERE account = $1`,
      [`u${v.id}`],
    );
    expect(rows[0]?.failures).toBe(8);
  });

  it('the delay stops doubling at 15 minutes', async () => {
    await t.account('victim_d', PERMISSION.visitor);
    for (let i = 1; i <= 25; i++) {
      await t.ctx.db.query(`UPDATE login_throttle SET blocked_until = NULL`);
      await login('victim_d', 'wrong-password', `10.78.0.${i}`);
    }
    const r = await login('victim_d', 'wrong-password', '10.78.1.1');
    expect(r.message).toContain('请900秒后再试');
  });
});

describe('repeated failures in the audit log', () => {
  it('one entry per five failures, with the count and a partial address, labelled in Chinese', async () => {
    const v = await t.account('victim_e', PERMISSION.visitor);
    for (let i = 0; i < 5; i++) await login('victim_e', 'wrong-password', '203.0.113.77');
    const log = await auditOf(t, v.id);
    const entries = log.filter((e) => e.action === 'auth.login_failed');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      target_name: 'victim_e',
      ip: '203.0.113.*',
      after: { failures: 5, network: '203.0.113.*', network_locked: true },
    });
    expect(JSON.stringify(log)).not.toContain('203.0.113.77');
  });
});

describe('unknown accounts answer like real ones', () => {
  it('same codes and messages at every attempt, lock included', async () => {
    await t.account('real_f', PERMISSION.visitor);
    const answers = async (filter: string, ip: string) => {
      const out: string[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await login(filter, 'wrong-password', ip);
        out.push(`${r.code} ${r.message}`);
      }
      return out;
    };
    const real = await answers('real_f', '10.80.0.1');
    const ghost = await answers('ghost_f', '10.80.0.2');
    expect(ghost).toEqual(real);
    expect(real[4]).toMatch(/^429 /);
  });

  it('the account-wide delay also applies to an unknown name', async () => {
    await t.account('real_g', PERMISSION.visitor);
    const answers = async (filter: string, net: string) => {
      for (let i = 1; i <= 11; i++) await login(filter, 'wrong-password', `${net}.${i}`);
      const r = await login(filter, 'wrong-password', `${net}.200`);
      return `${r.code} ${r.message}`;
    };
    expect(await answers('ghost_g', '10.81.0')).toBe(await answers('real_g', '10.81.1'));
  });

  it('a locked account still runs the password hash, like an unknown one', async () => {
    await t.account('real_h', PERMISSION.visitor);
    for (let i = 0; i < 5; i++) await login('real_h', 'wrong-password', '10.82.0.1');
    for (let i = 0; i < 5; i++) await login('ghost_h', 'wrong-password', '10.82.0.1');
    verifies.mockClear();
    expect((await login('real_h', TEST_PASSWORD, '10.82.0.1')).code).toBe(CODE.rateLimited);
    expect(verifies).toHaveBeenCalledTimes(1);
    expect((await login('ghost_h', TEST_PASSWORD, '10.82.0.1')).code).toBe(CODE.rateLimited);
    expect(verifies).toHaveBeenCalledTimes(2);
  });

  it('keeps no failure rows past their window and lock', async () => {
    for (let i = 0; i < 3; i++) await login(`nobody_${i}`, 'wrong-password', '10.83.0.1');
    await t.ctx.db.query(`UPDATE login_failures SET since = since - interval '2 hours', locked_until = NULL`);
    await t.ctx.db.query(
      `UPDATE login_throttle SET since = since - interval '2 hours', blocked_until = NULL`,
    );
    await login('nobody_new', 'wrong-password', '10.83.0.2');
    const n = await t.ctx.db.query<{ f: number; a: number }>(
      `SELECT (SELECT count(*)::int FROM login_failures) AS f, (SELECT count(*)::int FROM login_throttle) AS a`,
    );
    expect(n[0]).toEqual({ f: 1, a: 1 });
  });
});
