import {
  LIVE_API,
  SESSION_CODES,
  WS_TYPE,
  WS_VERSION,
  type WsChannel,
  type WsError,
  type WsPush,
  type WsReply,
  type WsRequest,
} from '@se/core';
import { useEffect, useRef, useSyncExternalStore } from 'react';

import { sessionExpired } from '../api/client.ts';

import { readToken } from '../session/storage.ts';

// The console's one websocket (protocol v1, core/src/ws.ts): opened when the first screen
// subscribes to a channel, shared by every screen, authenticated first, resubscribed after
// every reconnect. Screens use useLiveChannel; nothing else speaks to /ws.

/** What the client needs of a WebSocket; tests hand in an in-memory stand-in. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code?: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;

/** idle: no socket (nobody subscribed); connecting: opening or authenticating; open: authenticated. */
export type LiveStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

/** A refused request (an error frame) or one the connection lost or never answered. */
export class LiveError extends Error {
  readonly code: number | null;
  constructor(code: number | null, message: string) {
    super(message);
    this.name = 'LiveError';
    this.code = code;
  }
}

export type PushListener = (data: unknown, push: WsPush) => void;

export interface SubscribeOptions {
  /** After each subscribe the server accepted: `first` is false after a reconnect (pushes may have been missed). */
  onSubscribed?: (info: { first: boolean }) => void;
  /** The server refused the channel (403, 404). */
  onRefused?: (error: LiveError) => void;
}

export interface LiveSocketOptions {
  url: () => string;
  token: () => string;
  create: SocketFactory;
  /** A request without an answer in this time fails (and the connection is presumed dead). */
  requestTimeoutMs?: number;
  /** Reconnect delays: `minBackoffMs` doubling up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Keep-alive pings while open; 0 turns them off. */
  pingMs?: number;
  /** Close the socket this long after the last subscriber left. */
  idleCloseMs?: number;
  /** Close the socket (no pushes) this long after the page was hidden; reopen when shown. */
  hiddenPauseMs?: number;
  /** auth (or any request) answered with 401/4001/4002. */
  onSessionExpired?: (error: LiveError) => void;
}

export const LIVE_DEFAULTS = {
  requestTimeoutMs: 10_000,
  minBackoffMs: 1_000,
  maxBackoffMs: 30_000,
  pingMs: 25_000,
  idleCloseMs: 30_000,
  hiddenPauseMs: 5_000,
} as const;

/** One key per channel, so equal channels given as different objects share a subscription. */
export function channelKey(channel: WsChannel): string {
  switch (channel.channel) {
    case 'device':
      return `device:${channel.id}`;
    case 'devices':
      return `devices:${channel.kind}`;
    default:
      // alarms, comments, messages: one channel each, no key.
      return channel.channel;
  }
}

const pushKey = (push: WsPush): string =>
  push.channel === 'device' || push.channel === 'devices'
    ? `${push.channel}:${String(push.key)}`
    : push.channel;

/** The reconnect delay after `attempt` failures in a row: 1 s, 2 s, 4 s … capped at 30 s. */
export function backoffDelay(
  attempt: number,
  min: number = LIVE_DEFAULTS.minBackoffMs,
  max: number = LIVE_DEFAULTS.maxBackoffMs,
) {
  return Math.min(max, min * 2 ** Math.min(attempt, 30));
}

interface Pending {
  resolve: (data: unknown) => void;
  reject: (error: LiveError) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Listener {
  onPush: PushListener;
  options: SubscribeOptions;
}

interface Subscription {
  channel: WsChannel;
  listeners: Set<Listener>;
  /** Accepted by the server on this connection. */
  active: boolean;
  /** Ever accepted (a later acceptance is a resubscription). */
  everActive: boolean;
}

const OPEN = 1;
type RequestAction = WsRequest['action'];

export class LiveSocket {
  private readonly opts: Required<Omit<LiveSocketOptions, 'onSessionExpired'>> &
    Pick<LiveSocketOptions, 'onSessionExpired'>;
  private ws: SocketLike | null = null;
  private authed = false;
  private seq = 0;
  private attempt = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly subs = new Map<string, Subscription>();
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  /** The page is hidden (a background tab, a minimised window): no connection, no pushes. */
  private paused = false;
  private state: LiveStatus = 'idle';
  private readonly statusListeners = new Set<() => void>();

  constructor(options: LiveSocketOptions) {
    this.opts = { ...LIVE_DEFAULTS, ...options };
  }

  get status(): LiveStatus {
    return this.state;
  }

  /** For useSyncExternalStore. */
  onStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  /** Channels with at least one listener (for tests and diagnostics). */
  channels(): string[] {
    return [...this.subs.keys()];
  }

  /**
   * Listens to a channel; the first listener of a channel subscribes on the server, the
   * last one to leave unsubscribes. Returns the function that stops listening.
   */
  subscribe(channel: WsChannel, onPush: PushListener, options: SubscribeOptions = {}): () => void {
    const key = channelKey(channel);
    const listener: Listener = { onPush, options };
    let sub = this.subs.get(key);
    if (!sub) {
      sub = { channel, listeners: new Set(), active: false, everActive: false };
      this.subs.set(key, sub);
      if (this.authed) this.sendSubscribe(key, sub);
    }
    sub.listeners.add(listener);
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.connect();

    const mine = sub;
    return () => {
      if (!mine.listeners.delete(listener) || mine.listeners.size > 0) return;
      if (this.subs.get(key) !== mine) return;
      this.subs.delete(key);
      if (this.authed && mine.active) {
        this.request('unsubscribe', mine.channel).catch(() => {});
      }
      if (this.subs.size === 0) this.scheduleIdleClose();
    };
  }

  /**
   * The page was hidden or shown. A page hidden for `hiddenPauseMs` closes the socket, so a
   * background tab receives (and renders) no pushes; shown again, it reconnects and every
   * channel is resubscribed as after a lost connection (`first: false`: the screens fetch
   * what they missed).
   */
  setHidden(hidden: boolean): void {
    clearTimeout(this.hiddenTimer);
    this.hiddenTimer = undefined;
    if (hidden) {
      if (this.paused) return;
      this.hiddenTimer = setTimeout(() => {
        this.hiddenTimer = undefined;
        this.paused = true;
        this.disconnect();
        this.setStatus('idle');
      }, this.opts.hiddenPauseMs);
      return;
    }
    if (!this.paused) return;
    this.paused = false;
    this.connect();
  }

  /** Logout: closes the socket, forgets every subscription and stops reconnecting. */
  close(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.subs.clear();
    this.disconnect();
    this.setStatus('idle');
  }

  /** Sends a request once authenticated; resolves with the reply's data. */
  request(action: Exclude<RequestAction, 'auth'>, data: unknown): Promise<unknown> {
    if (!this.authed) return Promise.reject(new LiveError(null, '实时连接未就绪'));
    return this.send(action, data);
  }

  // ---- connection ----

  private connect(): void {
    if (this.ws || this.reconnectTimer !== undefined || this.subs.size === 0 || this.paused) return;
    const token = this.opts.token();
    // Signed out meanwhile: nothing to authenticate with; the next sign-in subscribes anew.
    if (!token) {
      this.attempt = 0;
      this.setStatus('idle');
      return;
    }
    this.setStatus(this.attempt > 0 ? 'reconnecting' : 'connecting');
    let ws: SocketLike;
    try {
      ws = this.opts.create(this.opts.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.send('auth', { token }).then(
        () => this.onAuthed(ws),
        // Refused for a reason other than the session (handled in receive) or not answered:
        // try again later.
        () => this.drop(ws),
      );
    };
    ws.onmessage = (event) => {
      if (this.ws === ws) this.receive(event.data);
    };
    ws.onerror = () => {
      // A close event follows; that is where reconnecting starts.
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.afterDisconnect();
      this.scheduleReconnect();
    };
  }

  private onAuthed(ws: SocketLike): void {
    if (this.ws !== ws) return;
    this.authed = true;
    this.attempt = 0;
    this.setStatus('open');
    for (const [key, sub] of this.subs) this.sendSubscribe(key, sub);
    if (this.opts.pingMs > 0) {
      this.pingTimer = setInterval(() => {
        // No answer in time: the connection is dead even if the browser has not noticed.
        this.request('ping', null).catch((error: LiveError) => {
          if (error.code === null && this.ws === ws) this.drop(ws);
        });
      }, this.opts.pingMs);
    }
    if (this.subs.size === 0) this.scheduleIdleClose();
  }

  private sendSubscribe(key: string, sub: Subscription): void {
    const ws = this.ws;
    this.request('subscribe', sub.channel).then(
      () => {
        if (this.ws !== ws) return;
        if (this.subs.get(key) !== sub) {
          // Everyone left while the subscribe was on its way; nobody has taken the channel since.
          if (!this.subs.has(key)) this.request('unsubscribe', sub.channel).catch(() => {});
          return;
        }
        const first = !sub.everActive;
        sub.active = true;
        sub.everActive = true;
        for (const l of [...sub.listeners]) l.options.onSubscribed?.({ first });
      },
      (error: LiveError) => {
        if (this.subs.get(key) !== sub || this.ws !== ws) return;
        if (error.code === null) {
          // Timed out: resubscribing on a fresh connection is the way to be sure.
          if (ws) this.drop(ws);
          return;
        }
        for (const l of [...sub.listeners]) l.options.onRefused?.(error);
      },
    );
  }

  /** Closes a connection that still looks open and lets onclose-style recovery run. */
  private drop(ws: SocketLike): void {
    if (this.ws !== ws) return;
    this.ws = null;
    detach(ws);
    try {
      ws.close(4000, 'reconnect');
    } catch {
      // Already closing.
    }
    this.afterDisconnect();
    this.scheduleReconnect();
  }

  /** Closes without reconnecting. */
  private disconnect(): void {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      detach(ws);
      try {
        ws.close(1000, 'bye');
      } catch {
        // Already closing.
      }
    }
    this.afterDisconnect();
    this.attempt = 0;
  }

  private afterDisconnect(): void {
    this.authed = false;
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    for (const sub of this.subs.values()) sub.active = false;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(new LiveError(null, '实时连接已断开'));
    }
  }

  private scheduleReconnect(): void {
    if (this.subs.size === 0) {
      this.attempt = 0;
      this.setStatus('idle');
      return;
    }
    this.setStatus('reconnecting');
    const delay = backoffDelay(this.attempt, this.opts.minBackoffMs, this.opts.maxBackoffMs);
    this.attempt += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect();
    }, delay);
  }

  private scheduleIdleClose(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.subs.size === 0) {
        this.disconnect();
        this.setStatus('idle');
      }
    }, this.opts.idleCloseMs);
  }

  // ---- frames ----

  private send(action: RequestAction, data: unknown): Promise<unknown> {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return Promise.reject(new LiveError(null, '实时连接未就绪'));
    this.seq += 1;
    const id = `r${this.seq}`;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new LiveError(null, `请求超时（${action}）`));
      }, this.opts.requestTimeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      try {
        ws.send(JSON.stringify({ v: WS_VERSION, type: WS_TYPE.request, id, action, data }));
      } catch {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new LiveError(null, '实时连接已断开'));
      }
    });
  }

  private receive(raw: unknown): void {
    let frame: WsReply | WsError | WsPush;
    try {
      frame = JSON.parse(String(raw)) as WsReply | WsError | WsPush;
    } catch {
      return;
    }
    if (!frame || typeof frame !== 'object' || frame.v !== WS_VERSION) return;
    if (frame.type === WS_TYPE.push) {
      const sub = this.subs.get(pushKey(frame));
      if (!sub) return;
      for (const l of [...sub.listeners]) {
        try {
          l.onPush(frame.data, frame);
        } catch {
          // One screen's bug must not keep the others from their pushes.
        }
      }
      return;
    }
    if (frame.type === WS_TYPE.reply || frame.type === WS_TYPE.error) {
      const error =
        frame.type === WS_TYPE.error
          ? new LiveError(Number(frame.data?.code) || 0, String(frame.data?.message ?? ''))
          : null;
      const id = frame.id;
      const pending = id !== undefined ? this.pending.get(id) : undefined;
      if (id !== undefined && pending) {
        this.pending.delete(id);
        clearTimeout(pending.timer);
        if (error) pending.reject(error);
        else pending.resolve((frame as WsReply).data);
      }
      // A session code on any frame ends the connection for good; the requester's own
      // handler then finds its socket gone and does nothing more.
      if (error && SESSION_CODES.includes(error.code ?? 0)) {
        this.close();
        this.opts.onSessionExpired?.(error);
      }
    }
  }

  private setStatus(status: LiveStatus): void {
    if (this.state === status) return;
    this.state = status;
    for (const l of [...this.statusListeners]) l();
  }
}

function detach(ws: SocketLike): void {
  ws.onopen = null;
  ws.onmessage = null;
  ws.onerror = null;
  ws.onclose = null;
}

// ---- the app's socket ----

/** ws: or wss: as the page, same host (the dev server proxies /ws). */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${LIVE_API.ws}`;
}

let shared: LiveSocket | undefined;

export function liveSocket(): LiveSocket {
  if (!shared) {
    const socket = new LiveSocket({
      url: () => liveUrl(),
      token: readToken,
      create: (url) => new WebSocket(url) as unknown as SocketLike,
      onSessionExpired: (error) => sessionExpired(error.message),
    });
    // Hidden tabs pause their pushes (issue 19: live lists cost main-thread time nobody sees).
    const follow = () => socket.setHidden(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', follow);
    follow();
    shared = socket;
  }
  return shared;
}

/** Logout (and leaving the console): the socket closes and forgets its subscriptions. */
export function closeLiveSocket(): void {
  shared?.close();
}

/**
 * Listens to a live channel while the component is mounted (null: not now). Components on
 * the same channel share one server subscription. `onPush` may change between renders.
 */
export function useLiveChannel(
  channel: WsChannel | null,
  onPush: PushListener,
  options: SubscribeOptions = {},
): void {
  const latest = useRef({ onPush, options });
  useEffect(() => {
    latest.current = { onPush, options };
  });
  const key = channel ? channelKey(channel) : null;
  useEffect(() => {
    if (!key || !channel) return;
    return liveSocket().subscribe(channel, (data, push) => latest.current.onPush(data, push), {
      onSubscribed: (info) => latest.current.options.onSubscribed?.(info),
      onRefused: (error) => latest.current.options.onRefused?.(error),
    });
    // The channel is identified by its key; a new object for the same channel is no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

/** The shared socket's state, for a small 实时 indicator. */
export function useLiveStatus(): LiveStatus {
  const socket = liveSocket();
  return useSyncExternalStore(socket.onStatus, () => socket.status);
}
