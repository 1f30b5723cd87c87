import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const BASE = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? '';

/** Debian's Chromium, with the flags this closed network needs. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
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
