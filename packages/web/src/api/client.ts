import { SESSION_CODES, type Envelope } from '@se/core';
import { clearSession } from '../session/session.ts';
import { readToken } from '../session/storage.ts';

/** SPEC §7/§9: every call gives up after 60 s. */
export const TIMEOUT_MS = 60_000;

/** Transport failures, with the texts of SPEC §8. A body code other than 200 is not an error here. */
export class ApiError extends Error {
  readonly kind: 'network' | 'timeout' | 'aborted' | 'http' | 'format';
  readonly status: number | undefined;
  constructor(kind: ApiError['kind'], message: string, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
  }
}

type Scalar = string | number | boolean | null | undefined;
export type Params = Record<string, Scalar | readonly Scalar[]>;

export interface RequestOptions {
  query?: Params;
  /** Send the body as JSON instead of the default form encoding. */
  json?: boolean;
  signal?: AbortSignal;
  timeout?: number;
  /**
   * Whether a session code also sends the user to the login page. The navigation guard
   * turns this off because it redirects to the page being entered, not the current one.
   */
  redirectOnExpiry?: boolean;
}

let onSessionExpired: (message: string) => void = () => {};

/**
 * A session code met outside this client (a file download, the live socket): the same
 * handling as any call's — forget the session and go to /login with the server's message.
 */
export function sessionExpired(message: string): void {
  clearSession();
  onSessionExpired(message);
}

/** The app installs the navigation that follows a 401/4001/4002 (it owns the router). */
export function setSessionExpiredHandler(handler: (message: string) => void): void {
  onSessionExpired = handler;
}

/**
 * Form encoding of SPEC §7. Arrays become repeated keys (the server also reads `1,2,3`),
 * booleans `true`/`false`, and null or undefined values are left out.
 */
export function encodeParams(params: Params | undefined): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values as Scalar[]) {
      if (v === null || v === undefined) continue;
      out.append(key, String(v));
    }
  }
  return out;
}

function readCookie(name: string): string {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : '';
}

/** The two token headers of SPEC §7, for calls made outside this client (file downloads). */
export function tokenHeaders(): Record<string, string> {
  const token = readToken();
  return token ? { Authorization: token, 'X-Token': token } : {};
}

function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', ...tokenHeaders() };
  // SPEC §7: the generic client echoes the XSRF-TOKEN cookie, as axios does.
  const xsrf = readCookie('XSRF-TOKEN');
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  return headers;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as Envelope).code === 'number';
}

/** How long an early answer (requestEarly) waits for the call it was started for. */
export const EARLY_MS = 10_000;

let recording = false;
const early = new Map<string, { at: number; token: string; answer: Promise<Envelope> }>();

/**
 * Starts the GET calls `start` makes now, before the screen that needs them has loaded
 * (the opened page's first list, issue 19): the first identical call (same path and
 * parameters, no abort signal) within EARLY_MS gets that answer instead of asking again.
 * An answer is handed out once, and only under the token it was asked with; a call with other
 * parameters goes to the server as usual.
 */
export function requestEarly(start: () => Promise<unknown>): void {
  recording = true;
  try {
    void start().catch(() => {});
  } finally {
    recording = false;
  }
}

/**
 * One call to the API. Resolves with the envelope whatever its body code (callers decide
 * what a 409 or 429 means to the user); rejects with ApiError only when no envelope came back.
 */
export function request<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: Params | object,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  if (method === 'GET') {
    const query = encodeParams(options.query).toString();
    const url = `${path}${query ? `?${query}` : ''}`;
    if (recording) {
      const answer = send<T>(method, path, body, options);
      early.set(url, { at: Date.now(), token: readToken(), answer });
      return answer;
    }
    const hit = early.get(url);
    if (hit && !options.signal) {
      early.delete(url);
      // Only for the session that asked: after signing out and in again, the server is asked.
      if (Date.now() - hit.at < EARLY_MS && hit.token === readToken())
        return hit.answer as Promise<Envelope<T>>;
    }
  }
  return send<T>(method, path, body, options);
}

async function send<T>(
  method: 'GET' | 'POST',
  path: string,
  body: Params | object | undefined,
  options: RequestOptions,
): Promise<Envelope<T>> {
  const timeout = options.timeout ?? TIMEOUT_MS;
  const query = encodeParams(options.query).toString();
  const url = `${path}${query ? `?${query}` : ''}`;
  const headers = authHeaders();
  let payload: string | undefined;
  if (method === 'POST') {
    if (options.json) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body ?? {});
    } else {
      headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
      payload = encodeParams(body as Params | undefined).toString();
    }
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  const forwardAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', forwardAbort);

  let status: number;
  let text: string;
  try {
    const response = await fetch(url, { method, headers, body: payload, signal: controller.signal });
    status = response.status;
    text = await response.text();
  } catch {
    if (timedOut) throw new ApiError('timeout', `timeout of ${timeout}ms exceeded`);
    if (controller.signal.aborted) throw new ApiError('aborted', 'Request aborted');
    throw new ApiError('network', 'Network Error');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }

  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!isEnvelope(parsed)) {
    if (status < 200 || status > 299) {
      throw new ApiError('http', `Request failed with status code ${status}`, status);
    }
    throw new ApiError('format', '服务器返回的数据无法识别', status);
  }

  const envelope = parsed as Envelope<T>;
  if (SESSION_CODES.includes(envelope.code)) {
    clearSession();
    if (options.redirectOnExpiry !== false) onSessionExpired(envelope.message);
  }
  return envelope;
}

export const get = <T>(path: string, query?: Params, options?: Omit<RequestOptions, 'query'>) =>
  request<T>('GET', path, undefined, { ...options, query });

export const post = <T>(path: string, body?: Params | object, options?: RequestOptions) =>
  request<T>('POST', path, body, options);

/** Whether a call succeeded (body code 200). */
export const isOk = (envelope: Envelope): boolean => envelope.code === 200;

/** Session codes are answered by the client itself (sign-out and /login), not by each caller. */
export const isSessionCode = (code: number): boolean => SESSION_CODES.includes(code);

/**
 * Sends a file (or a slice of one) as the raw body of a POST. XMLHttpRequest rather than
 * fetch: only it reports upload progress. Resolves with the envelope; rejects with ApiError
 * when no envelope came back (the connection dropped, a timeout, an abort).
 */
export function sendRaw<T>(
  path: string,
  body: Blob,
  contentType: string,
  onProgress?: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<Envelope<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.timeout = TIMEOUT_MS;
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded, e.total);
    };
    xhr.onload = () => {
      try {
        const envelope = JSON.parse(xhr.responseText) as Envelope<T>;
        if (typeof envelope?.code !== 'number') throw new Error('format');
        if (isSessionCode(envelope.code)) sessionExpired(envelope.message);
        resolve(envelope);
      } catch {
        reject(
          xhr.status < 200 || xhr.status > 299
            ? new ApiError('http', `Request failed with status code ${xhr.status}`, xhr.status)
            : new ApiError('format', '服务器返回的数据无法识别', xhr.status),
        );
      }
    };
    xhr.onerror = () => reject(new ApiError('network', 'Network Error'));
    xhr.ontimeout = () => reject(new ApiError('timeout', `timeout of ${TIMEOUT_MS}ms exceeded`));
    xhr.onabort = () => reject(new ApiError('aborted', 'Request aborted'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(body);
  });
}
