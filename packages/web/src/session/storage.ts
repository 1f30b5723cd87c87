/**
 * The browser-side session of SPEC §3/§9: token and user name under these exact
 * localStorage keys, plus the home path a deployment may set (OdHomePagePath).
 */
export const STORAGE_KEYS = {
  token: 'token',
  userName: 'user_name',
  homePath: 'OdHomePagePath',
  /** Not SPEC's: the last permission get-permission answered, so a reload paints at once. */
  user: 'od_session_user',
  /** Not SPEC's: the smart-toilet data centre version last chosen (its path), SPEC §2. */
  dcVersion: 'od_dc_version',
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
  write(STORAGE_KEYS.user, null);
}

/** What the session last knew of the signed-in user (permission, id), for the first paint. */
export interface CachedUser {
  permission: number;
  userID: number;
  backendManager: boolean;
}

export function storeCachedUser(user: CachedUser): void {
  write(STORAGE_KEYS.user, JSON.stringify(user));
}

/** The cached user of a stored session, or null (none, or unreadable). */
export function readCachedUser(): CachedUser | null {
  if (!hasStoredSession()) return null;
  try {
    const v = JSON.parse(read(STORAGE_KEYS.user) ?? 'null') as Partial<CachedUser> | null;
    if (!v || !Number.isInteger(v.permission) || !Number.isInteger(v.userID)) return null;
    return { permission: v.permission!, userID: v.userID!, backendManager: v.backendManager === true };
  } catch {
    return null;
  }
}

/** SPEC §4 "设为首页": the path the console opens after signing in. */
export function storeHomePath(path: string): void {
  write(STORAGE_KEYS.homePath, path);
}

export function readHomePath(): string {
  return read(STORAGE_KEYS.homePath) ?? '';
}

/** The three versions of the smart-toilet data centre (SPEC §2: one product), by path. */
export const DC_VERSIONS = [
  { path: '/data-center2', label: 'V2' },
  { path: '/data-center', label: '标准版' },
  { path: '/display-center', label: '展示版' },
] as const;

/** The data centre version last chosen (a path of DC_VERSIONS), or '' when none is stored. */
export function readDcVersion(): string {
  const v = read(STORAGE_KEYS.dcVersion) ?? '';
  return DC_VERSIONS.some((d) => d.path === v) ? v : '';
}

export function storeDcVersion(path: string): void {
  write(STORAGE_KEYS.dcVersion, path);
}
