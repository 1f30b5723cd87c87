import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { hashPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('uses scrypt at OWASP strength (N=2^17, r=8, p=1) by default', async () => {
    expect(loadConfig({}).scryptLogN).toBe(17);
    const h = await hashPassword('correct horse');
    expect(h).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(await verifyPassword('correct horse', h)).toBe(true);
    expect(await verifyPassword('correct horsE', h)).toBe(false);
  });

  it('salts: the same password hashes differently', async () => {
    expect(await hashPassword('same-password', 12)).not.toBe(await hashPassword('same-password', 12));
  });

  it('rejects stored strings it does not understand', async () => {
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });
});
