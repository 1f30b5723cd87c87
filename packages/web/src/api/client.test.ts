import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../session/store.ts';
import { expectSignedOut } from '../session/test-session.ts';
import {
  ApiError,
  EARLY_MS,
  encodeParams,
  get,
  post,
  requestEarly,
  setSessionExpiredHandler,
} from './client.ts';

type FetchArgs = [string, RequestInit];

function stubFetch(respond: (url: string, init: RequestInit) => Promise<Response> | Response) {
  const fetchMock = vi.fn((url: string, init: RequestInit) => Promise.resolve(respond(url, init)));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const envelope = (code: number, data: unknown = null, message = '') =>
  new Response(JSON.stringify({ code, message, data }), { status: 200 });

const headersOf = (init: RequestInit) => new Headers(init.headers);

describe('API client', () => {
  const expired = vi.fn();
  beforeEach(() => {
    expired.mockReset();
    setSessionExpiredHandler(expired);
    useSession.getState().reset();
  });
  afterEach(() => setSessionExpiredHandler(() => {}));

  it('sends the stored token, quotes removed, as Authorization and X-Token', async () => {
    localStorage.setItem('token', '"abc123"');
    const fetchMock = stubFetch(() => envelope(200, { ok: true }));
    await get('/api/v1/auth/get-permission');
    const [url, init] = fetchMock.mock.calls[0] as FetchArgs;
    expect(url).toBe('/api/v1/auth/get-permission');
    expect(headersOf(init).get('Authorization')).toBe('abc123');
    expect(headersOf(init).get('X-Token')).toBe('abc123');
  });

  it('sends no token headers when signed out', async () => {
    const fetchMock = stubFetch(() => envelope(200));
    await get('/api/v1/site');
    const [, init] = fetchMock.mock.calls[0] as FetchArgs;
    expect(headersOf(init).has('Authorization')).toBe(false);
    expect(headersOf(init).has('X-Token')).toBe(false);
  });

  it('form-encodes POST bodies: arrays as repeated keys, booleans as text, nullish left out', async () => {
    const fetchMock = stubFetch(() => envelope(200));
    await post('/api/v1/gateway/bind-user-gateway', {
      user_id: 7,
      add_ids: [1, 2],
      remove_ids: [],
      remeber: true,
      note: null,
      name: '东门 厕所&1',
    });
    const [, init] = fetchMock.mock.calls[0] as FetchArgs;
    expect(headersOf(init).get('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    const body = new URLSearchParams(init.body as string);
    expect(body.getAll('add_ids')).toEqual(['1', '2']);
    expect(body.has('remove_ids')).toBe(false);
    expect(body.get('remeber')).toBe('true');
    expect(body.has('note')).toBe(false);
    expect(body.get('name')).toBe('东门 厕所&1');
    expect(body.get('user_id')).toBe('7');
  });

  it('sends JSON when asked', async () => {
    const fetchMock = stubFetch(() => envelope(200));
    await post('/api/v1/x', { ids: [1, 2], on: false }, { json: true });
    const [, init] = fetchMock.mock.calls[0] as FetchArgs;
    expect(headersOf(init).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual({ ids: [1, 2], on: false });
  });

  it('puts GET parameters in the query string', async () => {
    const fetchMock = stubFetch(() => envelope(200));
    await get('/api/v1/dev/outbox', { page: 2, page_size: 20, keywords: undefined });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v1/dev/outbox?page=2&page_size=20');
  });

  it('resolves with the envelope whatever its body code', async () => {
    stubFetch(() => envelope(409, null, '用户名已被占用'));
    await expect(post('/api/v1/auth/signup', {})).resolves.toEqual({
      code: 409,
      message: '用户名已被占用',
      data: null,
    });
  });

  it.each([401, 4001, 4002])('body code %i clears the session and asks for the login page', async (code) => {
    localStorage.setItem('token', 'abc');
    localStorage.setItem('user_name', '张三');
    localStorage.setItem('OdHomePagePath', '/gateways');
    useSession.getState().signIn({ userName: '张三', permission: 3, userID: 9 });
    stubFetch(() => envelope(code, null, '登录已过期'));

    await get('/api/v1/user/get-info');

    expectSignedOut();
    // Not part of the session: a deployment's home path survives.
    expect(localStorage.getItem('OdHomePagePath')).toBe('/gateways');
    expect(expired).toHaveBeenCalledWith('登录已过期');
  });

  it('leaves the redirect to the caller when told to', async () => {
    localStorage.setItem('token', 'abc');
    stubFetch(() => envelope(401));
    await get('/api/v1/auth/get-permission', undefined, { redirectOnExpiry: false });
    expect(localStorage.getItem('token')).toBeNull();
    expect(expired).not.toHaveBeenCalled();
  });

  it('does not treat other codes as a lost session', async () => {
    localStorage.setItem('token', 'abc');
    stubFetch(() => envelope(403, null, '没有权限'));
    await get('/api/v1/user/users');
    expect(localStorage.getItem('token')).toBe('abc');
    expect(expired).not.toHaveBeenCalled();
  });

  it("rejects with 'Network Error' when the server cannot be reached", async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(get('/api/v1/site')).rejects.toMatchObject({ kind: 'network', message: 'Network Error' });
  });

  it("rejects with 'timeout of …ms exceeded' when the answer takes too long", async () => {
    stubFetch(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    await expect(get('/api/v1/site', undefined, { timeout: 20 })).rejects.toMatchObject({
      kind: 'timeout',
      message: 'timeout of 20ms exceeded',
    });
  });

  it('times out after 60000 ms by default', async () => {
    vi.useFakeTimers();
    try {
      stubFetch(
        (_url, init) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      );
      const call = get('/api/v1/site');
      const settled = expect(call).rejects.toThrow('timeout of 60000ms exceeded');
      await vi.advanceTimersByTimeAsync(59_999);
      await vi.advanceTimersByTimeAsync(1);
      await settled;
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects with 'Request aborted' when the caller aborts", async () => {
    stubFetch(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const controller = new AbortController();
    const call = get('/api/v1/site', undefined, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ kind: 'aborted', message: 'Request aborted' });
  });

  it('reports an HTTP error status without an envelope', async () => {
    stubFetch(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
    const error = await get('/api/v1/site').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'http',
      status: 502,
      message: 'Request failed with status code 502',
    });
  });
});

describe('encodeParams', () => {
  it('keeps zero and empty text, which are values', () => {
    expect(encodeParams({ a: 0, b: '', c: false }).toString()).toBe('a=0&b=&c=false');
  });
});

describe('early answers (requestEarly)', () => {
  afterEach(() => vi.useRealTimers());

  it('answers the first identical GET with the call started early, once', async () => {
    let served = 0;
    const fetchMock = stubFetch(() => envelope(200, { served: ++served }));
    requestEarly(() => get('/api/v1/toilets', { page: 1, page_size: 10 }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const first = await get<{ served: number }>('/api/v1/toilets', {
      keywords: undefined,
      page: 1,
      page_size: 10,
    });
    expect(first.data.served).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // A refresh afterwards asks the server again.
    const again = await get<{ served: number }>('/api/v1/toilets', { page: 1, page_size: 10 });
    expect(again.data.served).toBe(2);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not answer a call with other parameters, or one made too late', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fetchMock = stubFetch((url) => envelope(200, url));
    requestEarly(() => get('/api/v1/users', { page: 1, page_size: 10 }));
    expect((await get('/api/v1/users', { page: 2, page_size: 10 })).data).toBe(
      '/api/v1/users?page=2&page_size=10',
    );
    expect(fetchMock).toHaveBeenCalledTimes(2);
    vi.setSystemTime(Date.now() + EARLY_MS + 1);
    await get('/api/v1/users', { page: 1, page_size: 10 });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it("does not hand one account's early answer to the next account signed in", async () => {
    localStorage.setItem('token', 'first-account');
    const fetchMock = stubFetch(() => envelope(200, { token: localStorage.getItem('token') }));
    requestEarly(() => get('/api/v1/toilets', { page: 1, page_size: 10 }));
    localStorage.setItem('token', 'second-account');
    const answer = await get<{ token: string }>('/api/v1/toilets', { page: 1, page_size: 10 });
    expect(answer.data.token).toBe('second-account');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
