// Hand-made MQTT 3.1.1 bytes: an attacker does not use a well-behaved client library.
// Shared by the broker's limit tests and bench/mqtt-bombs.ts.

/** The fixed header's "remaining length": 7 bits a byte, high bit = more follows. */
export const varint = (n: number) => {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
};

/** A length-prefixed UTF-8 string. */
export const str = (s: string) => {
  const b = Buffer.from(s);
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
};

/** The start of a CONNECT: fixed header declaring `declared` bytes, then the protocol name. */
export const connectHead = (declared: number) =>
  Buffer.concat([Buffer.from([0x10]), varint(declared), str('MQTT')]);

/** A whole CONNECT of a device: client id = user name = ser_num, password = token. */
export const connectPacket = (ser: string, token: string) => {
  const body = Buffer.concat([
    str('MQTT'),
    Buffer.from([4, 0b1100_0010, 0, 60]), // level 4; user name, password, clean session; keep-alive 60 s
    str(ser),
    str(ser),
    str(token),
  ]);
  return Buffer.concat([Buffer.from([0x10]), varint(body.length), body]);
};
