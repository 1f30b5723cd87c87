import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const BASE = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? '';

/** Debian's Chromium, with the flags this closed network needs (and any a suite adds: a fake camera). */
export function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...extraArgs,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: BASE,
    locale: 'zh-CN',
    viewport: { width: 1366, height: 800 },
  });
  const page = await context.newPage();
  return { context, page };
}

/** A 390×844 phone (touch, mobile layout): the field technician's screen. */
export async function newPhone(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: BASE,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
  });
  return { context, page: await context.newPage() };
}

/** Signs in through the login form, as a person would. */
export async function signIn(page: Page, user: string, password: string) {
  await page.getByPlaceholder(/用户名|账号/).fill(user);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** Calls the API directly (for setup steps that are not what a test is about). */
export async function api<T = unknown>(
  method: 'GET' | 'POST',
  url: string,
  body?: Record<string, string>,
  token?: string,
): Promise<{ code: number; message: string; data: T }> {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: {
      ...(token ? { 'x-token': token } : {}),
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: body ? new URLSearchParams(body).toString() : undefined,
  });
  return res.json() as Promise<{ code: number; message: string; data: T }>;
}

/** admin's session token, signed in through the API (setup for suites that add things as admin). */
export async function adminToken(): Promise<string> {
  const r = await api<{ auth_token: string }>('POST', '/api/v1/auth/login', {
    filter: 'admin',
    password: ADMIN_PASSWORD,
  });
  return r.data.auth_token;
}

/**
 * An account of `permissions` added by admin (`token`) and bound to these objects, each a
 * binding call and the id it binds (e.g. `['/api/v1/gateway/bind-user-gateway', 7]`): the
 * viewer of a suite that watches only what its own objects change, while other files run
 * beside it. Answers the account's id.
 */
export async function boundAccount(
  token: string,
  account: { name: string; password: string },
  permissions: string,
  bindings: readonly (readonly [url: string, id: number])[],
): Promise<number> {
  const user = await api<{ id: number }>(
    'POST',
    '/api/v1/user/add-user',
    { user_name: account.name, password: account.password, permissions },
    token,
  );
  if (user.code !== 200) throw new Error(`add-user: ${user.message}`);
  for (const [url, id] of bindings) {
    const bound = await api('POST', url, { user_id: String(user.data.id), add_ids: String(id) }, token);
    if (bound.code !== 200) throw new Error(`${url}: ${bound.message}`);
  }
  return user.data.id;
}

/**
 * Setup for the maintenance suites: a technician (user role) who sees one dispenser, added by
 * admin; answers the technician's id.
 */
export async function technicianWithDispenser(
  admin: string,
  tech: { name: string; password: string },
  dispenser: { serial: string; desc: string },
): Promise<number> {
  const user = await api<{ id: number }>(
    'POST',
    '/api/v1/user/add-user',
    { user_name: tech.name, password: tech.password, permissions: '3' },
    admin,
  );
  if (user.code !== 200) throw new Error(`add-user: ${user.message}`);
  const jwb = await api<{ id: number }>(
    'POST',
    '/api/v1/jwb/add-jwb',
    { ser_num: dispenser.serial, desc: dispenser.desc },
    admin,
  );
  if (jwb.code !== 200) throw new Error(`add-jwb: ${jwb.message}`);
  const bound = await api(
    'POST',
    '/api/v1/jwb/bind-user-jwb',
    { user_id: String(user.data.id), add_ids: String(jwb.data.id) },
    admin,
  );
  if (bound.code !== 200) throw new Error(`bind-user-jwb: ${bound.message}`);
  return user.data.id;
}
