import type { SocketLike } from './socket.ts';

// An in-memory stand-in for the browser's WebSocket, for unit tests: it records what the
// client sends and lets a test play the server (open, reply, push, close).

export interface SentFrame {
  v: number;
  type: number;
  id: string;
  action: string;
  data: unknown;
}

export class FakeSocket implements SocketLike {
  readyState = 0;
  readonly sent: SentFrame[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(JSON.parse(data) as SentFrame);
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  // ---- the server's side ----

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  /** The last request sent with this action. */
  last(action: string): SentFrame {
    const frame = this.sent.findLast((f) => f.action === action);
    if (!frame) throw new Error(`no ${action} sent; sent: ${this.sent.map((f) => f.action).join(', ')}`);
    return frame;
  }

  actions(): string[] {
    return this.sent.map((f) =>
      f.action === 'subscribe' || f.action === 'unsubscribe' ? `${f.action} ${key(f.data)}` : f.action,
    );
  }

  reply(frame: SentFrame, data: unknown = null): void {
    this.receive({ v: 1, type: 2, id: frame.id, data });
  }

  fail(frame: SentFrame, code: number, message = '错误'): void {
    this.receive({ v: 1, type: 0, id: frame.id, data: { code, message } });
  }

  push(channel: string, key: number | string | undefined, data: unknown): void {
    this.receive({ v: 1, type: 3, channel, key, data });
  }

  receive(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  /** The server (or the network) ends the connection. */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

function key(data: unknown): string {
  const c = data as { channel: string; id?: number; kind?: string };
  return c.channel === 'device'
    ? `device:${c.id}`
    : c.channel === 'devices'
      ? `devices:${c.kind}`
      : c.channel;
}

/** A factory that keeps every socket it made, newest last. */
export function fakeFactory() {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    create: (url: string) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    get current(): FakeSocket {
      const s = sockets.at(-1);
      if (!s) throw new Error('no socket made');
      return s;
    },
  };
}
