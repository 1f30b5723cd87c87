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
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6');
}

export function isPrivateAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = net.isIP(ip);
  if (family === 0) return true;
  return blocked.check(ip, family === 4 ? 'ipv4' : 'ipv6');
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
