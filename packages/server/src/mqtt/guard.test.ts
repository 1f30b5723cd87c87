import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '@se/core';
import { varint } from '../test/mqtt-bytes.ts';
import { MAX_PACKET_BYTES, MAX_PREAUTH_BYTES, PacketScanner } from './guard.ts';

const packet = (first: number, bodyBytes: number) =>
  Buffer.concat([Buffer.from([first]), varint(bodyBytes), Buffer.alloc(bodyBytes, 0x30)]);
/** Feeds `data` in pieces of `size` bytes; the first complaint, or null. */
const feed = (s: PacketScanner, data: Buffer, size: number) => {
  for (let i = 0; i < data.length; i += size) {
    const why = s.feed(data.subarray(i, i + size));
    if (why) return why;
  }
  return null;
};

// Packet boundaries fall anywhere in TCP chunks: every test runs with several chunkings.
describe.each([1, 3, 1000, 1 << 20])('MQTT packet scanner, chunks of %i bytes', (size) => {
  it('lets a sign-in and a stream of largest messages through', () => {
    const s = new PacketScanner();
    expect(feed(s, packet(0x10, 60), size)).toBeNull();
    s.signedIn = true;
    const stream = Buffer.concat([
      packet(0x32, MAX_PACKET_BYTES),
      packet(0xc0, 0), // PINGREQ
      packet(0x32, 200),
      packet(0x32, MAX_MESSAGE_BYTES),
    ]);
    expect(feed(s, stream, size)).toBeNull();
  });

  it('stops at the header of a packet above the limit, wherever the chunks split it', () => {
    const s = new PacketScanner();
    expect(feed(s, packet(0x10, 60), size)).toBeNull();
    s.signedIn = true;
    const head = Buffer.concat([packet(0x32, 100), Buffer.from([0x32]), varint(MAX_PACKET_BYTES + 1)]);
    expect(feed(s, head, size)).toMatch(/packet/);
  });

  it('allows 4 KB before sign-in in all, CONNECT first', () => {
    expect(feed(new PacketScanner(), packet(0x10, MAX_PREAUTH_BYTES - 3), size)).toBeNull();
    expect(feed(new PacketScanner(), packet(0x10, MAX_PREAUTH_BYTES), size)).toMatch(/before sign-in/);
    // A CONNECT, then a pipelined packet that would pass the 4 KB in all.
    const two = Buffer.concat([packet(0x10, 100), packet(0x82, MAX_PREAUTH_BYTES - 100)]);
    expect(feed(new PacketScanner(), two, size)).toMatch(/before sign-in/);
    expect(feed(new PacketScanner(), packet(0x30, 10), size)).toMatch(/not a CONNECT/);
  });

  it('refuses a remaining length of more than four digits', () => {
    const bad = Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(feed(new PacketScanner(), bad, size)).toMatch(/malformed|before sign-in/);
  });
});
