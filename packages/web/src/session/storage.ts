/**
 * The browser-side session of SPEC §3/§9: token and user name under these exact
 * localStorage keys, plus the home path a deployment may set (OdHomePagePath).
 */
export const STORAGE_KEYS = {
  token: 'token',
  userName: 'user_name',
  homePath: 'OdHomePagePath',
} as const;

// Storage can throw (disabled cookies, private modes, quota); a console that cannot
// remember a session should still render its login page.
function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // See read(): nothing useful to do.
  }
}

/** The stored token with quotes removed: older builds stored it JSON-encoded (SPEC §7). */
export function readToken(): string {
  return (read(STORAGE_KEYS.token) ?? '').replace(/"/g, '');
}

export function readUserName(): string {
  return read(STORAGE_KEYS.userName) ?? '';
}

/** True when both token and user name are stored (SPEC §4 guard). */
export function hasStoredSession(): boolean {
  return readToken() !== '' && readUserName() !== '';
}

export function storeSession(token: string, userName: string): void {
  write(STORAGE_KEYS.token, token);
  write(STORAGE_KEYS.userName, userName);
}

export function clearStoredSession(): void {
  write(STORAGE_KEYS.token, null);
  write(STORAGE_KEYS.userName, null);
}

export function readHomePath(): string {
  return read(STORAGE_KEYS.homePath) ?? '';
}
