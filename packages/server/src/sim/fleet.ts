import { DEVICE_KINDS, TOILET_API, type DeviceKind } from '@se/core';
import type { SimDevice } from './values.ts';

/** A thin client of the console's own API, as an operator's script would use it. */
export class ConsoleApi {
  constructor(
    readonly base: string,
    public token = '',
  ) {}

  async login(user: string, password: string) {
    const r = await this.call<{ auth_token: string }>('POST', '/api/v1/auth/login', {
      filter: user,
      password,
    });
    this.token = r.auth_token;
    return this;
  }

  async call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: Record<string, unknown>,
    raw?: { type: string; data: string | Uint8Array<ArrayBuffer> },
  ): Promise<T> {
    const headers: Record<string, string> = { 'x-token': this.token };
    let payload: string | Uint8Array<ArrayBuffer> | undefined;
    if (raw) {
      headers['content-type'] = raw.type;
      payload = raw.data;
    } else if (body && method === 'POST') {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const q =
      body && method === 'GET'
        ? `?${new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]))}`
        : '';
    const res = await fetch(`${this.base}${path}${q}`, { method, headers, body: payload });
    const env = (await res.json()) as { code: number; message: string; data: T };
    if (env.code !== 200) throw new Error(`${path}: ${env.code} ${env.message}`);
    return env.data;
  }
}

/**
 * Registers `count` devices of a kind named `<prefix>-<n>` through the import call (skipping
 * ones that exist) and answers them with their tokens.
 */
export async function ensureDevices(
  api: ConsoleApi,
  kind: DeviceKind,
  prefix: string,
  count: number,
  describe: (i: number) => string,
) {
  const k = DEVICE_KINDS[kind];
  const existing = await listAll(api, kind, prefix);
  const have = new Set(existing.map((d) => d.ser_num));
  const rows = Array.from({ length: count }, (_, i) => i)
    .filter((i) => !have.has(`${prefix}-${i + 1}`))
    .map((i) => `${prefix}-${i + 1},${describe(i)}`);
  if (rows.length) {
    await api.call('POST', `${k.base}/import-${k.plural}?mode=all`, undefined, {
      type: 'text/csv',
      data: ['序列号,描述', ...rows].join('\n'),
    });
  }
  return listAll(api, kind, prefix);
}

/**
 * The devices of a prefix with their tokens. Lists never carry a token (docs/permissions.md):
 * each one comes from the device's own get-… call, which answers it to a manager (the
 * simulator signs in as one), a few at a time.
 */
async function listAll(api: ConsoleApi, kind: DeviceKind, prefix: string) {
  const k = DEVICE_KINDS[kind];
  const found: { id: number; ser_num: string }[] = [];
  for (let page = 1; ; page++) {
    const r = await api.call<{ list: { id: number; ser_num: string }[] }>('GET', `${k.base}/${k.plural}`, {
      keywords: `${prefix}-`,
      page,
      page_size: 100,
    });
    for (const d of r.list) if (d.ser_num.startsWith(`${prefix}-`)) found.push(d);
    if (r.list.length < 100) break;
  }
  const out: (SimDevice & { id: number })[] = [];
  for (let i = 0; i < found.length; i += 8) {
    const batch = await Promise.all(
      found.slice(i, i + 8).map(async (d) => {
        const one = await api.call<{ token?: string }>('GET', `${k.base}/get-${k.one}`, { id: d.id });
        if (!one.token) throw new Error(`no token for ${d.ser_num}: the simulator must manage its devices`);
        return { id: d.id, ser_num: d.ser_num, token: one.token, kind };
      }),
    );
    out.push(...batch);
  }
  return out;
}

export async function bindAll(api: ConsoleApi, kind: DeviceKind | 'toilet', userId: number, ids: number[]) {
  const path = kind === 'toilet' ? TOILET_API.bind : DEVICE_KINDS[kind].bind;
  for (let i = 0; i < ids.length; i += 1000) {
    await api.call('POST', path, {
      user_id: userId,
      add_ids: ids.slice(i, i + 1000).join(','),
      remove_ids: '',
    });
  }
}
