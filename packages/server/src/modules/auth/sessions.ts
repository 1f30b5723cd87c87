import { CODE } from '@se/core';
import type { Caller } from '../../context.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { newToken, sha256 } from './password.ts';
import { findSessionByHash, insertSession, revokeSession, revokeUserSessions } from './sessions-repo.ts';

export type Resolved = { ok: true; caller: Caller } | { ok: false; code: number; message: string };

interface Entry {
  sessionId: number;
  userId: number;
  userName: string;
  permission: number;
  expiresAt: number;
  revoked: boolean;
  deleted: boolean;
  cachedAt: number;
}

const DAY = 86_400_000;
export const SESSION_TTL = { remember: 30 * DAY, normal: DAY } as const;

// A cached session is re-read after this long, so a revocation made by another server
// copy takes effect within it; revocations made here invalidate at once.
const CACHE_MS = 10_000;
const CACHE_MAX = 100_000;

/**
 * Sessions: random bearer tokens, stored as SHA-256, cached briefly in memory (by token) because every
 * API request resolves one.
 */
export class SessionStore {
  private cache = new Map<string, Entry>();
  /**
   * Bumped by every revocation and forgetting: a session read that started before one is
   * answered to its request but not cached, so it cannot bring back what was just dropped.
   */
  private generation = 0;

  constructor(private db: Db) {}

  async create(userId: number, remember: boolean, meta: { ip: string; userAgent: string }): Promise<string> {
    const token = newToken();
    const ttl = remember ? SESSION_TTL.remember : SESSION_TTL.normal;
    await insertSession(this.db, userId, sha256(token), ttl, meta.ip, meta.userAgent.slice(0, 300));
    return token;
  }

  async resolve(token: string | null): Promise<Resolved> {
    if (!token) return { ok: false, code: CODE.unauthorized, message: '请先登录' };
    if (token.length > 200)
      return { ok: false, code: CODE.unauthorized, message: '登录状态无效，请重新登录' };
    const now = Date.now();
    // Kept by the token itself: its digest is only the database's key (a sha256 a request was
    // 1.6% of the console's CPU on a list).
    let e = this.cache.get(token);
    if (!e || now - e.cachedAt > CACHE_MS) {
      e = await this.load(token, now);
      if (!e) return { ok: false, code: CODE.unauthorized, message: '登录状态无效，请重新登录' };
    }
    if (e.revoked || e.deleted) {
      return {
        ok: false,
        code: CODE.revoked,
        message: '登录状态已失效（已退出或在别处修改了密码），请重新登录',
      };
    }
    if (e.expiresAt <= now) return { ok: false, code: CODE.expired, message: '登录已过期，请重新登录' };
    return {
      ok: true,
      caller: { id: e.userId, userName: e.userName, permission: e.permission, sessionId: e.sessionId },
    };
  }

  private async load(token: string, now: number): Promise<Entry | undefined> {
    const generation = this.generation;
    const r = await findSessionByHash(this.db, sha256(token));
    if (!r) return undefined;
    const e: Entry = {
      sessionId: r.id,
      userId: r.user_id,
      userName: r.user_name,
      permission: r.permissions,
      expiresAt: new Date(r.expires_at).getTime(),
      revoked: r.revoked_at !== null,
      deleted: r.is_delete,
      cachedAt: now,
    };
    if (generation !== this.generation) return e;
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(token, e);
    return e;
  }

  async revoke(sessionId: number, reason: string): Promise<void> {
    await revokeSession(this.db, sessionId, reason);
    this.generation++;
    for (const e of this.cache.values()) if (e.sessionId === sessionId) e.revoked = true;
  }

  /**
   * Revokes every live session of a user (password change, deletion); `q` is the caller's
   * transaction when there is one. The cache forgets them at once, even if it rolls back.
   */
  async revokeUser(
    userId: number,
    reason: string,
    exceptSessionId?: number,
    q: Queryable = this.db,
  ): Promise<void> {
    await revokeUserSessions(q, userId, reason, exceptSessionId ?? 0);
    this.generation++;
    for (const e of this.cache.values()) {
      if (e.userId === userId && e.sessionId !== exceptSessionId) e.revoked = true;
    }
  }

  /** Drops cached state of a user whose name or permission changed. */
  forgetUser(userId: number): void {
    this.generation++;
    for (const [k, e] of this.cache) if (e.userId === userId) this.cache.delete(k);
  }
}
