import { Duplex } from 'node:stream';
import type net from 'node:net';
import { MAX_MESSAGE_BYTES } from '@se/core';
import type { FastifyBaseLogger } from 'fastify';

export interface MqttLimits {
  /** Open connections per remote address, signed in or not. */
  maxConnectionsPerIp: number;
  /** Connections per remote address that have not signed in yet. */
  maxPendingPerIp: number;
  /** A connection not signed in by then is closed. */
  connectTimeoutMs: number;
}

/**
 * Bytes a connection may send before its CONNACK: its CONNECT and whatever it pipelines
 * behind it. A device's CONNECT (ser_num, token, no will) is under 300 bytes.
 */
export const MAX_PREAUTH_BYTES = 4 * 1024;
/** Beyond the payload, a PUBLISH carries its topic (d/<ser_num>/up, ≤ 71 bytes) and packet id. */
export const MAX_PACKET_BYTES = MAX_MESSAGE_BYTES + 256;

const CONNECT = 1;

/**
 * Reads MQTT fixed headers off the raw byte stream, packet boundary by packet boundary,
 * and says when a packet declares more than allowed: the parser behind it (mqtt-packet)
 * would otherwise buffer whatever a packet declares until it is complete, and before
 * sign-in anyone can declare 256 MB.
 */
export class PacketScanner {
  /** Set once the broker accepted the CONNECT. */
  signedIn = false;
  private seen = 0;
  private packets = 0;
  /** Bytes of the current packet's body still to pass. */
  private skip = 0;
  /** Inside a fixed header: its first byte, then the remaining-length digits read. */
  private type = -1;
  private digits = 0;
  private length = 0;
  private factor = 1;

  /** Why the connection must close, or null while it behaves. */
  feed(chunk: Buffer): string | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        this.seen += n;
        i += n;
        continue;
      }
      const b = chunk[i++]!;
      this.seen++;
      if (this.type < 0) {
        this.type = b >> 4;
        if (this.packets === 0 && this.type !== CONNECT) return 'first packet is not a CONNECT';
        continue;
      }
      this.length += (b & 0x7f) * this.factor;
      this.factor *= 128;
      if (b & 0x80) {
        if (++this.digits >= 4) return 'malformed remaining length';
        continue;
      }
      const why = this.check(this.length);
      if (why) return why;
      this.packets++;
      this.skip = this.length;
      this.type = -1;
      this.digits = 0;
      this.length = 0;
      this.factor = 1;
    }
    return this.signedIn || this.seen <= MAX_PREAUTH_BYTES ? null : 'too many bytes before sign-in';
  }

  private check(length: number): string | null {
    if (!this.signedIn) {
      // The declared end of this packet, counted from the first byte of the connection.
      return this.seen + length > MAX_PREAUTH_BYTES
        ? `${length}-byte packet before sign-in (at most ${MAX_PREAUTH_BYTES} bytes)`
        : null;
    }
    return length > MAX_PACKET_BYTES ? `${length}-byte packet (at most ${MAX_PACKET_BYTES} bytes)` : null;
  }
}

/**
 * The socket as aedes sees it: every chunk passes the scanner first, and the socket is
 * destroyed the moment a packet declares too much, before anything is buffered for it.
 */
export class GuardedSocket extends Duplex {
  readonly scanner = new PacketScanner();

  constructor(
    private socket: net.Socket,
    onViolation: (why: string) => void,
    private onSignedIn: () => void = () => {},
  ) {
    super({ allowHalfOpen: false, decodeStrings: false });
    socket.on('data', (chunk: Buffer) => {
      const why = this.scanner.feed(chunk);
      if (why) {
        onViolation(why);
        this.destroy();
        return;
      }
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.destroy());
    socket.on('drain', () => this.emit('drain'));
  }

  get remoteAddress() {
    return this.socket.remoteAddress;
  }

  /** The broker accepted the CONNECT: from now on, packets up to MAX_PACKET_BYTES. */
  signedIn() {
    if (this.scanner.signedIn) return;
    this.scanner.signedIn = true;
    this.onSignedIn();
  }

  override _read() {
    this.socket.resume();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void) {
    if (this.socket.write(chunk)) cb();
    else this.socket.once('drain', () => cb());
  }

  override _writev(chunks: { chunk: Buffer }[], cb: (err?: Error | null) => void) {
    this.socket.cork();
    let ok = true;
    for (const c of chunks) ok = this.socket.write(c.chunk);
    this.socket.uncork();
    if (ok) cb();
    else this.socket.once('drain', () => cb());
  }

  override _final(cb: (err?: Error | null) => void) {
    this.socket.end(cb);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void) {
    this.socket.destroy();
    cb(err);
  }
}

/**
 * Counts connections per remote address and refuses, closes and logs offenders. One warning
 * line per address and reason per minute, so a flood does not flood the log too.
 */
export class ConnectionGate {
  private perIp = new Map<string, { open: number; pending: number }>();
  private warned = new Map<string, number>();

  constructor(
    private limits: MqttLimits,
    private log: FastifyBaseLogger,
  ) {}

  /** The stream to hand the broker, or null when the socket was refused (and destroyed). */
  admit(socket: net.Socket): GuardedSocket | null {
    const ip = socket.remoteAddress ?? 'unknown';
    const n = this.perIp.get(ip) ?? { open: 0, pending: 0 };
    const over =
      n.open >= this.limits.maxConnectionsPerIp
        ? `${n.open} connections open (MQTT_MAX_CONNECTIONS_PER_IP)`
        : n.pending >= this.limits.maxPendingPerIp
          ? `${n.pending} connections not signed in (MQTT_MAX_PENDING_PER_IP)`
          : null;
    if (over) {
      this.warn(ip, 'refused', over);
      socket.on('error', () => {});
      socket.destroy();
      return null;
    }
    n.open++;
    n.pending++;
    this.perIp.set(ip, n);
    let pending = true;
    const settle = () => {
      if (!pending) return;
      pending = false;
      n.pending--;
      clearTimeout(timer);
    };
    const guarded = new GuardedSocket(socket, (why) => this.warn(ip, 'closed', why), settle);
    const timer = setTimeout(() => {
      this.warn(ip, 'closed', `not signed in within ${this.limits.connectTimeoutMs} ms`);
      guarded.destroy();
    }, this.limits.connectTimeoutMs);
    timer.unref();
    guarded.once('close', () => {
      settle();
      if (--n.open === 0) this.perIp.delete(ip);
    });
    return guarded;
  }

  private warn(ip: string, what: string, why: string) {
    const key = `${ip}|${what}|${why.replace(/\d+/g, '#')}`;
    const now = Date.now();
    if ((this.warned.get(key) ?? 0) > now - 60_000) return;
    if (this.warned.size > 10_000) this.warned.clear();
    this.warned.set(key, now);
    this.log.warn({ ip, reason: why }, `mqtt connection ${what}`);
  }
}
