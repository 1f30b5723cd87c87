import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  pw: string,
  salt: Buffer,
  len: number,
  opts: crypto.ScryptOptions,
) => Promise<Buffer>;

const KEY_LEN = 32;

/**
 * scrypt with OWASP's minimum (N=2^17, r=8, p=1) by default. The parameters travel in the
 * stored string, so raising the cost later leaves old hashes verifiable.
 */
export async function hashPassword(password: string, logN = 17): Promise<string> {
  const salt = crypto.randomBytes(16);
  const N = 2 ** logN;
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LEN, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return `scrypt$${logN}$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, logN, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const N = 2 ** Number(logN);
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 256 * N * Number(r),
  });
  return crypto.timingSafeEqual(key, expected);
}

/** A fixed hash verified when the account does not exist, so timing does not reveal it. */
let dummy: Promise<string> | null = null;
export function dummyHash(logN: number): Promise<string> {
  dummy ??= hashPassword(crypto.randomBytes(12).toString('hex'), logN);
  return dummy;
}

/** 256 random bits, URL-safe. */
export const newToken = () => crypto.randomBytes(32).toString('base64url');

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('base64url');
