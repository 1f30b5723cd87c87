import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFactory, type FakeSocket } from './fake-socket.ts';
import {
  LiveSocket,
  backoffDelay,
  channelKey,
  liveUrl,
  type LiveError,
  type LiveSocketOptions,
} from './socket.ts';

const DEVICE_7 = { channel: 'device', id: 7 } as const;
const GATEWAYS = { channel: 'devices', kind: 'gateway' } as const;
const ALARMS = { channel: 'alarms' } as const;

let factory: ReturnType<typeof fakeFactory>;
let token: string;
let expired: LiveError[];

function make(options: Partial<LiveSocketOptions> = {}) {
  return new LiveSocket({
    url: () => 'ws://console.test/ws',
    token: () => token,
    create: factory.create,
    pingMs: 0,
    onSessionExpired: (e) => expired.push(e),
    ...options,
  });
}

/** Opens the current socket and answers its auth. */
async function accept(ws: FakeSocket = factory.current) {
  ws.open();
  ws.reply(ws.last('auth'));
  await flush();
}

/** A socket subscribed to device 7 (`off` ends that), connected and signed in. */
async function connected(options: Partial<LiveSocketOptions> = {}) {
  const live = make(options);
  const off = live.subscribe(DEVICE_7, () => {});
  await accept();
  return { live, off };
}

/** Lets promise callbacks run (replies resolve through promises). */
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  factory = fakeFactory();
  token = 'tok-1';
  expired = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('live socket: connecting', () => {
  it('connects only when the first subscriber appears, and authenticates first', async () => {
    const live = make();
    expect(factory.sockets).toHaveLength(0);
    expect(live.status).toBe('idle');

    live.subscribe(DEVICE_7, () => {});
    expect(factory.sockets).toHaveLength(1);
    expect(factory.current.url).toBe('ws://console.test/ws');
    expect(live.status).toBe('connecting');

    factory.current.open();
    const auth = factory.current.last('auth');
    expect(auth).toMatchObject({ v: 1, type: 1, action: 'auth', data: { token: 'tok-1' } });
    // Nothing else goes out before the server accepts the token.
    expect(factory.current.actions()).toEqual(['auth']);

    factory.current.reply(auth);
    await flush();
    expect(live.status).toBe('open');
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7']);
    expect(factory.current.last('subscribe')).toMatchObject({ v: 1, type: 1, data: DEVICE_7 });
  });

  it('gives every request its own id', async () => {
    const live = make();
    live.subscribe(DEVICE_7, () => {});
    live.subscribe(GATEWAYS, () => {});
    live.subscribe(ALARMS, () => {});
    await accept();
    const ids = factory.current.sent.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('does not connect without a stored token', () => {
    token = '';
    const live = make();
    live.subscribe(DEVICE_7, () => {});
    expect(factory.sockets).toHaveLength(0);
  });

  it('uses wss: on https pages and the same host', () => {
    expect(liveUrl({ protocol: 'https:', host: 'a.example:8443' })).toBe('wss://a.example:8443/ws');
    expect(liveUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/ws');
  });
});

describe('live socket: requests and replies', () => {
  it('resolves a request with the data of the reply carrying its id, whatever the order', async () => {
    const { live } = await connected();
    const a = live.request('ping', null);
    const b = live.request('ping', null);
    const [fa, fb] = factory.current.sent.slice(-2);
    factory.current.reply(fb!, 'second');
    factory.current.reply(fa!, 'first');
    await expect(a).resolves.toBe('first');
    await expect(b).resolves.toBe('second');
  });

  it('rejects a request with the code and message of an error frame', async () => {
    const { live } = await connected();
    const p = live.request('subscribe', { channel: 'device', id: 99 });
    factory.current.fail(factory.current.last('subscribe'), 404, '设备不存在');
    await expect(p).rejects.toMatchObject({ code: 404, message: '设备不存在' });
  });

  it('fails a request that gets no answer in time', async () => {
    const live = make({ requestTimeoutMs: 5000 });
    live.subscribe(DEVICE_7, () => {});
    await accept();
    const p = live.request('ping', null);
    const caught = p.catch((e: LiveError) => e);
    await vi.advanceTimersByTimeAsync(4999);
    expect(await Promise.race([caught, Promise.resolve('pending')])).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(await caught).toMatchObject({ code: null });
  });

  it('refuses requests before authentication', async () => {
    const live = make();
    live.subscribe(DEVICE_7, () => {});
    await expect(live.request('ping', null)).rejects.toMatchObject({ code: null });
  });

  it('ignores frames of another protocol version and text that is not JSON', async () => {
    const live = make();
    const pushes: unknown[] = [];
    live.subscribe(DEVICE_7, (d) => pushes.push(d));
    await accept();
    factory.current.receive({ v: 2, type: 3, channel: 'device', key: 7, data: { nope: 1 } });
    factory.current.onmessage?.({ data: 'not json' });
    expect(pushes).toEqual([]);
  });

  it('drops the connection and tries again when auth is not answered', async () => {
    make({ requestTimeoutMs: 3000 }).subscribe(DEVICE_7, () => {});
    factory.current.open();
    await vi.advanceTimersByTimeAsync(3000);
    expect(factory.sockets[0]!.closedWith).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(factory.sockets).toHaveLength(2);
  });
});

describe('live socket: pushes and refcounting', () => {
  it('delivers pushes to the listeners of their channel and key only', async () => {
    const live = make();
    const seven: unknown[] = [];
    const gateways: unknown[] = [];
    const alarms: unknown[] = [];
    live.subscribe(DEVICE_7, (d) => seven.push(d));
    live.subscribe(GATEWAYS, (d) => gateways.push(d));
    live.subscribe(ALARMS, (d) => alarms.push(d));
    await accept();

    factory.current.push('device', 7, { id: 7 });
    factory.current.push('device', 8, { id: 8 });
    factory.current.push('devices', 'gateway', { id: 3 });
    factory.current.push('devices', 'jwb', { id: 4 });
    factory.current.push('alarms', undefined, { id: 1 });
    expect(seven).toEqual([{ id: 7 }]);
    expect(gateways).toEqual([{ id: 3 }]);
    expect(alarms).toEqual([{ id: 1 }]);
  });

  it('keeps the comments and messages channels apart from the alarms', async () => {
    const live = make();
    const comments: unknown[] = [];
    const messages: unknown[] = [];
    const alarms: unknown[] = [];
    live.subscribe({ channel: 'comments' }, (d) => comments.push(d));
    live.subscribe({ channel: 'messages' }, (d) => messages.push(d));
    live.subscribe(ALARMS, (d) => alarms.push(d));
    await accept();
    factory.current.push('comments', undefined, { id: 5 });
    factory.current.push('messages', undefined, { unread: 2 });
    expect(comments).toEqual([{ id: 5 }]);
    expect(messages).toEqual([{ unread: 2 }]);
    expect(alarms).toEqual([]);
  });

  it('shares one server subscription between listeners of one channel', async () => {
    const live = make();
    const a: unknown[] = [];
    const b: unknown[] = [];
    const offA = live.subscribe(DEVICE_7, (d) => a.push(d));
    // A new object for the same channel is the same channel.
    const offB = live.subscribe({ channel: 'device', id: 7 }, (d) => b.push(d));
    await accept();
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7']);
    factory.current.reply(factory.current.last('subscribe'));
    await flush();

    factory.current.push('device', 7, 1);
    expect(a).toEqual([1]);
    expect(b).toEqual([1]);

    offA();
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7']);
    factory.current.push('device', 7, 2);
    expect(a).toEqual([1]);
    expect(b).toEqual([1, 2]);

    offB();
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7', 'unsubscribe device:7']);
    expect(live.channels()).toEqual([]);
    // Calling it twice changes nothing.
    offB();
    expect(factory.current.actions()).toHaveLength(3);
  });

  it('subscribes at once when a channel is added to an open connection', async () => {
    const { live } = await connected();
    live.subscribe(ALARMS, () => {});
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7', 'subscribe alarms']);
  });

  it('takes back a subscription whose last listener left before the server accepted it', async () => {
    const { off } = await connected();
    const sub = factory.current.last('subscribe');
    off();
    // Not yet accepted: nothing to take back yet.
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7']);
    factory.current.reply(sub);
    await flush();
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7', 'unsubscribe device:7']);
  });

  it('tells the listeners when the server refuses a channel', async () => {
    const live = make();
    const refused: (number | null)[] = [];
    live.subscribe(DEVICE_7, () => {}, { onRefused: (e) => refused.push(e.code) });
    await accept();
    factory.current.fail(factory.current.last('subscribe'), 403, '无权查看该设备');
    await flush();
    expect(refused).toEqual([403]);
  });

  it('keeps delivering to the other listeners when one throws', async () => {
    const live = make();
    const got: unknown[] = [];
    live.subscribe(DEVICE_7, () => {
      throw new Error('bug');
    });
    live.subscribe(DEVICE_7, (d) => got.push(d));
    await accept();
    factory.current.push('device', 7, 'x');
    expect(got).toEqual(['x']);
  });

  it('closes the socket a while after the last listener left, and reopens for the next', async () => {
    const { live, off } = await connected({ idleCloseMs: 30_000 });
    off();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(factory.current.closedWith).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(factory.current.closedWith).not.toBeNull();
    expect(live.status).toBe('idle');

    live.subscribe(ALARMS, () => {});
    expect(factory.sockets).toHaveLength(2);
  });

  it('keeps the socket when a listener comes back before the idle time is up', async () => {
    const { live, off } = await connected({ idleCloseMs: 30_000 });
    off();
    await vi.advanceTimersByTimeAsync(10_000);
    live.subscribe(DEVICE_7, () => {});
    factory.current.reply(factory.current.last('subscribe'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(factory.sockets).toHaveLength(1);
    expect(factory.current.closedWith).toBeNull();
  });
});

describe('live socket: reconnecting', () => {
  it('reconnects with backoff 1 s doubling to 30 s, then re-authenticates and resubscribes', async () => {
    const live = make();
    const subscribed: boolean[] = [];
    live.subscribe(DEVICE_7, () => {}, { onSubscribed: ({ first }) => subscribed.push(first) });
    live.subscribe(ALARMS, () => {});
    await accept();
    factory.current.reply(factory.current.sent[1]!);
    await flush();
    expect(subscribed).toEqual([true]);

    // The server closes; every reconnect attempt fails until the seventh.
    factory.current.drop();
    expect(live.status).toBe('reconnecting');
    const waits = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000];
    for (const [i, wait] of waits.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(factory.sockets).toHaveLength(1 + i);
      await vi.advanceTimersByTimeAsync(1);
      expect(factory.sockets).toHaveLength(2 + i);
      if (i < waits.length - 1) factory.current.drop();
    }

    token = 'tok-2';
    await accept();
    expect(factory.current.last('auth').data).toEqual({ token: 'tok-1' });
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7', 'subscribe alarms']);
    factory.current.reply(factory.current.sent[1]!);
    await flush();
    expect(subscribed).toEqual([true, false]);
    expect(live.status).toBe('open');

    // Success resets the backoff.
    factory.current.drop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(factory.sockets).toHaveLength(9);
  });

  it('reads the token again on each connection', async () => {
    await connected();
    token = 'tok-2';
    factory.current.drop();
    await vi.advanceTimersByTimeAsync(1000);
    factory.current.open();
    expect(factory.current.last('auth').data).toEqual({ token: 'tok-2' });
  });

  it('fails the requests in flight when the connection goes', async () => {
    const { live } = await connected();
    const p = live.request('ping', null);
    factory.current.drop();
    await expect(p).rejects.toMatchObject({ code: null });
  });

  it('resubscribes only the channels still listened to', async () => {
    const live = make();
    live.subscribe(DEVICE_7, () => {});
    const off = live.subscribe(ALARMS, () => {});
    await accept();
    factory.current.drop();
    off();
    await vi.advanceTimersByTimeAsync(1000);
    await accept();
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7']);
  });

  it('does not reconnect when nobody listens any more', async () => {
    const { live, off } = await connected();
    off();
    factory.current.drop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(factory.sockets).toHaveLength(1);
    expect(live.status).toBe('idle');
  });

  it('reconnects when a subscribe is not answered in time', async () => {
    const live = make({ requestTimeoutMs: 5000 });
    live.subscribe(DEVICE_7, () => {});
    await accept();
    await vi.advanceTimersByTimeAsync(5000);
    expect(factory.sockets[0]!.closedWith).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    await accept();
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7']);
  });

  it('pings while open and reconnects when a ping goes unanswered', async () => {
    const live = make({ pingMs: 25_000, requestTimeoutMs: 10_000 });
    live.subscribe(DEVICE_7, () => {});
    await accept();
    factory.current.reply(factory.current.last('subscribe'));
    await vi.advanceTimersByTimeAsync(25_000);
    const ping = factory.current.last('ping');
    factory.current.reply(ping, 'pong');
    await vi.advanceTimersByTimeAsync(25_000);
    expect(factory.current.actions().filter((a) => a === 'ping')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(factory.sockets[0]!.closedWith).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(factory.sockets).toHaveLength(2);
  });
});

describe('live socket: hidden pages', () => {
  /** Subscribed to device 7 and accepted; pushes and `first` flags are recorded. */
  async function watching() {
    const live = make({ hiddenPauseMs: 5000 });
    const pushes: unknown[] = [];
    const subscribed: boolean[] = [];
    live.subscribe(DEVICE_7, (d) => pushes.push(d), { onSubscribed: ({ first }) => subscribed.push(first) });
    await accept();
    factory.current.reply(factory.current.last('subscribe'));
    await flush();
    return { live, pushes, subscribed };
  }

  it('closes the connection of a page hidden for a while, and resubscribes (first: false) when shown', async () => {
    const { live, pushes, subscribed } = await watching();
    live.setHidden(true);
    await vi.advanceTimersByTimeAsync(4999);
    factory.current.push('device', 7, 'still');
    expect(pushes).toEqual(['still']);

    await vi.advanceTimersByTimeAsync(1);
    const paused = factory.current;
    expect(paused.closedWith).not.toBeNull();
    expect(live.status).toBe('idle');
    // Nothing reaches the screens, and no reconnect is tried while hidden.
    paused.push('device', 7, 'hidden');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(factory.sockets).toHaveLength(1);
    expect(pushes).toEqual(['still']);

    live.setHidden(false);
    expect(factory.sockets).toHaveLength(2);
    await accept();
    expect(factory.current.actions()).toEqual(['auth', 'subscribe device:7']);
    factory.current.reply(factory.current.last('subscribe'));
    await flush();
    // The screens fetch what they missed, as after a lost connection.
    expect(subscribed).toEqual([true, false]);
    factory.current.push('device', 7, 'back');
    expect(pushes).toEqual(['still', 'back']);
  });

  it('keeps the connection of a page hidden only briefly', async () => {
    const { live, pushes, subscribed } = await watching();
    live.setHidden(true);
    await vi.advanceTimersByTimeAsync(3000);
    live.setHidden(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(factory.sockets).toHaveLength(1);
    expect(factory.current.closedWith).toBeNull();
    factory.current.push('device', 7, 'x');
    expect(pushes).toEqual(['x']);
    expect(subscribed).toEqual([true]);
  });

  it('does not connect for a channel taken while paused, until the page is shown', async () => {
    const { live } = await watching();
    live.setHidden(true);
    await vi.advanceTimersByTimeAsync(5000);
    live.subscribe(GATEWAYS, () => {});
    expect(factory.sockets).toHaveLength(1);
    live.setHidden(false);
    await accept();
    expect(factory.current.actions().sort()).toEqual([
      'auth',
      'subscribe device:7',
      'subscribe devices:gateway',
    ]);
  });
});

describe('live socket: session and logout', () => {
  it.each([401, 4001, 4002])('stops for good and reports the session gone on auth error %i', async (code) => {
    const live = make();
    live.subscribe(DEVICE_7, () => {});
    factory.current.open();
    factory.current.fail(factory.current.last('auth'), code, '登录已失效');
    await flush();
    expect(expired.map((e) => e.code)).toEqual([code]);
    expect(factory.current.closedWith).not.toBeNull();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(factory.sockets).toHaveLength(1);
    expect(live.status).toBe('idle');
  });

  it('retries with backoff on another auth error', async () => {
    const live = make();
    live.subscribe(DEVICE_7, () => {});
    factory.current.open();
    factory.current.fail(factory.current.last('auth'), 500, '服务器错误');
    await flush();
    expect(expired).toEqual([]);
    expect(live.status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1000);
    expect(factory.sockets).toHaveLength(2);
  });

  it('ends the session on a session code in an unsolicited error frame', async () => {
    const { live } = await connected();
    factory.current.receive({ v: 1, type: 0, data: { code: 4002, message: '已在别处登录' } });
    expect(expired.map((e) => e.message)).toEqual(['已在别处登录']);
    expect(live.channels()).toEqual([]);
  });

  it('close() shuts the socket, forgets the subscriptions and does not reconnect', async () => {
    const { live, off } = await connected();
    live.close();
    expect(factory.current.closedWith?.code).toBe(1000);
    expect(live.status).toBe('idle');
    expect(live.channels()).toEqual([]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(factory.sockets).toHaveLength(1);
    // A screen unmounting afterwards is harmless; the next subscriber connects anew.
    off();
    live.subscribe(ALARMS, () => {});
    expect(factory.sockets).toHaveLength(2);
  });
});

describe('live socket helpers', () => {
  it('names channels by kind and key', () => {
    expect(channelKey(DEVICE_7)).toBe('device:7');
    expect(channelKey(GATEWAYS)).toBe('devices:gateway');
    expect(channelKey(ALARMS)).toBe('alarms');
    expect(channelKey({ channel: 'comments' })).toBe('comments');
    expect(channelKey({ channel: 'messages' })).toBe('messages');
  });

  it('backs off 1, 2, 4, 8, 16 s, then stays at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((n) => backoffDelay(n))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
