import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/** Addresses a webhook must not reach unless explicitly allowed: this host and private networks. */
const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv4');
}
for (const [addr, prefix] of [
  ['::', 128],
  ['::1', 128],
  // Discard-only and documentation prefixes: nothing legitimate listens there.
  ['100::', 64],
  ['2001:db8::', 32],
  // Local-use NAT64 (RFC 8215): a translator of this network, whatever it embeds.
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  // Deprecated site-local, still routed inside some networks.
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (any spelling, dotted tail allowed), or null. */
function ipv6Bytes(ip: string): number[] | null {
  let s = ip.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    if (net.isIPv4(dotted[1]!) === false) return null;
    tail = dotted[1]!.split('.').map(Number);
    s = s.slice(0, -dotted[1]!.length) + '0:0';
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const part = (h: string) => (h === '' ? [] : h.split(':'));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 2 ? fill < 0 : fill !== 0) return null;
  const groups = [...head, ...Array<string>(fill).fill('0'), ...rest];
  const bytes: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    const n = parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

const zeros = (b: number[], from: number, to: number) => b.slice(from, to).every((x) => x === 0);
const v4 = (b: number[]) => b.join('.');

/**
 * The IPv4 addresses an IPv6 address reaches through a standard embedding: the host's own
 * stack (IPv4-mapped, -compatible, -translated), a NAT64 translator (64:ff9b::/96), a 6to4
 * relay (2002::/16) or Teredo (2001::/32, client address inverted). Each must pass the IPv4
 * rules, or a URL could name 127.0.0.1 or 10.0.0.1 in IPv6 clothing.
 */
function embeddedIpv4(b: number[]): string[] {
  const out: string[] = [];
  const last = b.slice(12, 16);
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) out.push(v4(last));
  if (zeros(b, 0, 12)) out.push(v4(last));
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) out.push(v4(last));
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(b, 4, 12)) out.push(v4(last));
  if (b[0] === 0x20 && b[1] === 0x02) out.push(v4(b.slice(2, 6)));
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) {
    out.push(v4(b.slice(4, 8)), v4(last.map((x) => x ^ 0xff)));
  }
  return out;
}

/** Whether an address (of a URL or a DNS answer) is this host or a private network. */
export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 0) return true;
  if (family === 4) return blocked.check(ip, 'ipv4');
  const bytes = ipv6Bytes(ip);
  if (!bytes) return true;
  if (blocked.check(ip, 'ipv6')) return true;
  return embeddedIpv4(bytes).some((a) => blocked.check(a, 'ipv4'));
}

export class WebhookError extends Error {}

export interface PostResult {
  status: number;
  latencyMs: number;
  /** The first 4 KB of the answer, when asked for (robots answer errors with HTTP 200). */
  body?: string;
}

const BODY_LIMIT = 4096;

/**
 * POSTs JSON with a deadline. The address is checked after DNS resolution and the
 * connection goes to the checked address, so a name cannot point somewhere else later.
 */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean; readBody?: boolean },
): Promise<PostResult> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !opts.allowPrivate && isPrivateAddress(host)) {
    return Promise.reject(new WebhookError('不允许访问内网或本机地址'));
  }
  const lookup: net.LookupFunction = (hostname, options, cb) => {
    dns.lookup(hostname, { all: true }, (err, addresses) => {
      if (err) return cb(new WebhookError('无法解析域名'), '', 4);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad && !opts.allowPrivate) return cb(new WebhookError('不允许访问内网或本机地址'), '', 4);
      const a = list[0]!;
      if ((options as dns.LookupOptions).all)
        return (cb as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, [a]);
      cb(null, a.address, a.family);
    });
  };
  const payload = JSON.stringify(body);
  const mod = u.protocol === 'https:' ? https : http;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = mod.request(
      u,
      {
        method: 'POST',
        lookup,
        timeout: opts.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (opts.readBody && size < BODY_LIMIT) {
            chunks.push(c);
            size += c.length;
          }
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            latencyMs: Math.round(performance.now() - t0),
            ...(opts.readBody
              ? { body: Buffer.concat(chunks).subarray(0, BODY_LIMIT).toString('utf8') }
              : {}),
          });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new WebhookError(`连接超时（${opts.timeoutMs / 1000}秒）`)),
      opts.timeoutMs,
    );
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new WebhookError(`连接超时（${opts.timeoutMs / 1000}秒）`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof WebhookError) return reject(err);
      const msg =
        err.code === 'ECONNREFUSED'
          ? '连接被拒绝'
          : err.code === 'ENOTFOUND'
            ? '无法解析域名'
            : err.code?.startsWith('ERR_TLS') || err.code?.includes('CERT')
              ? 'HTTPS 证书无效'
              : `请求失败（${err.code ?? err.message}）`;
      reject(new WebhookError(msg));
    });
    req.end(payload);
  });
}
