import path from 'node:path';
import { z } from 'zod';

const port = (name: string, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v.trim()) || n > 65535) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a port number 0-65535 (got "${v}")` });
        return z.NEVER;
      }
      return n;
    });

const whole = (name: string, fallback: number, min: number, what: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v.trim()) || n < min) {
        ctx.addIssue({ code: 'custom', message: `${name} must be ${what} (got "${v}")` });
        return z.NEVER;
      }
      return n;
    });

const optionalUrl = (name: string, protocols: string[]) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      let u: URL;
      try {
        u = new URL(v);
      } catch {
        ctx.addIssue({ code: 'custom', message: `${name} is not a valid URL (got "${v}")` });
        return z.NEVER;
      }
      if (!protocols.includes(u.protocol)) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must start with ${protocols.map((p) => p + '//').join(' or ')} (got "${v}")`,
        });
        return z.NEVER;
      }
      return v;
    });

const envSchema = z.object({
  PORT: port('PORT', 8080),
  HOST: z.string().trim().min(1, 'HOST must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1, 'DATA_DIR must not be empty').default('./data'),
  DATABASE_URL: optionalUrl('DATABASE_URL', ['postgres:', 'postgresql:']),
  MQTT_PORT: port('MQTT_PORT', 1883),
  MQTT_URL: optionalUrl('MQTT_URL', ['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:']),
  MQTT_CLIENT_ID: z.string().trim().max(64, 'MQTT_CLIENT_ID must be at most 64 characters').optional(),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'MQTT_SHARE_GROUP must be 1-32 letters, digits, _ or -')
    .default('console'),
  MQTT_MAX_CONNECTIONS_PER_IP: whole('MQTT_MAX_CONNECTIONS_PER_IP', 10_000, 1, 'a whole number ≥ 1'),
  MQTT_MAX_PENDING_PER_IP: whole('MQTT_MAX_PENDING_PER_IP', 1000, 1, 'a whole number ≥ 1'),
  MQTT_CONNECT_TIMEOUT: whole('MQTT_CONNECT_TIMEOUT', 10, 1, 'a whole number of seconds ≥ 1'),
  LOGIN_LIMIT_PER_IP: whole('LOGIN_LIMIT_PER_IP', 60, 1, 'a whole number ≥ 1'),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || (v.length >= 8 && v.length <= 64), {
      message: 'ADMIN_PASSWORD must be 8-64 characters long',
    }),
  SMTP_URL: optionalUrl('SMTP_URL', ['smtp:', 'smtps:']),
  REDIS_URL: optionalUrl('REDIS_URL', ['redis:', 'rediss:']),
  S3_URL: optionalUrl('S3_URL', ['http:', 'https:']),
  MAIL_FROM: z.string().default('智慧环境管理系统 <noreply@localhost>'),
  SITE_RECORD_CODE: z.string().default(''),
  SITE_RECORD_URL: optionalUrl('SITE_RECORD_URL', ['http:', 'https:']),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false', ''], { error: 'TRUST_PROXY must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  WEB_DIST: z.string().optional(),
  MAP_TILE_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const t = v.trim();
      const placeholders = ['{z}', '{x}', '{y}'].every((p) => t.includes(p));
      let ok = t.startsWith('/') && !t.startsWith('//');
      try {
        ok ||= ['http:', 'https:'].includes(new URL(t).protocol);
      } catch {
        // Neither a path on this server nor an absolute URL.
      }
      if (!ok || !placeholders) {
        ctx.addIssue({
          code: 'custom',
          message: `MAP_TILE_URL must be an http(s) URL or a /path with {z}, {x} and {y} (got "${v}")`,
        });
        return z.NEVER;
      }
      return t;
    }),
  RETENTION_DAYS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return 400;
      if (!/^\d+$/.test(v.trim())) {
        ctx.addIssue({
          code: 'custom',
          message: `RETENTION_DAYS must be a whole number of days, 0 for forever (got "${v}")`,
        });
        return z.NEVER;
      }
      return Number(v);
    }),
  ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const out: string[] = [];
      for (const item of (v ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        let u: URL | null = null;
        try {
          u = new URL(item);
        } catch {
          // Reported below.
        }
        if (!u || !['http:', 'https:'].includes(u.protocol) || u.origin !== item.replace(/\/$/, '')) {
          ctx.addIssue({
            code: 'custom',
            message: `ALLOWED_ORIGINS must be comma-separated origins like https://console.example.com (got "${item}")`,
          });
          return z.NEVER;
        }
        out.push(u.origin);
      }
      return out;
    }),
  DATACENTER_CACHE_MS: whole('DATACENTER_CACHE_MS', 3000, 0, 'a whole number of milliseconds ≥ 0'),
  PGLITE_IN_PROCESS: z
    .enum(['true', 'false', ''], { error: 'PGLITE_IN_PROCESS must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  ALLOW_PRIVATE_WEBHOOKS: z
    .enum(['true', 'false', ''], { error: 'ALLOW_PRIVATE_WEBHOOKS must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
});

export interface Config {
  port: number;
  host: string;
  /** PGlite directory; null keeps the database in memory (tests). */
  dataDir: string | null;
  /** PostgreSQL URL; when absent the embedded PGlite in dataDir is used. */
  databaseUrl: string | undefined;
  /**
   * Embedded PGlite on the server's own thread instead of its worker thread: only to measure
   * the difference (bench/event-loop.ts); its queries then stall HTTP, MQTT and /ws.
   */
  pgliteInProcess: boolean;
  /** Embedded MQTT broker port; null disables the broker (tests that do not need it). */
  mqttPort: number | null;
  /** External broker: with it, no embedded broker runs and the server subscribes there. */
  mqttUrl: string | undefined;
  mqttClientId: string | undefined;
  /** Shared-subscription group the server copies join on the external broker. */
  mqttShareGroup: string;
  /** Embedded broker: open connections per remote address (signed in or not). */
  mqttMaxConnectionsPerIp: number;
  /** Embedded broker: connections per remote address that have not signed in yet. */
  mqttMaxPendingPerIp: number;
  /** Embedded broker: a connection not signed in by then is closed. */
  mqttConnectTimeoutMs: number;
  /** Sign-ins (and sign-ups, password recoveries) per remote address per 10 minutes. */
  loginLimitPerIp: number;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  /** Live-push fan-out across server copies; without it the bus is in-process. */
  redisUrl: string | undefined;
  /**
   * Uploaded files in an S3-compatible bucket (`http(s)://KEY:SECRET@host:port/bucket`), shared
   * by every server copy; without it they are kept under `${dataDir}/files`.
   */
  s3Url?: string;
  mailFrom: string;
  siteRecordCode: string;
  siteRecordUrl: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  /**
   * Origins besides the site's own whose pages may open /ws (a console served from another
   * host name). The site's own origin is always allowed.
   */
  allowedOrigins: string[];
  /** Map tiles for the data centres ({z}/{x}/{y} template); without it they draw the bundled China map. */
  mapTileUrl: string | undefined;
  /** Built web app to serve; null serves the API only. */
  webDist: string | null;
  /** scrypt cost as log2(N); OWASP asks for N = 2^17. */
  scryptLogN: number;
  /** Days of device reports kept (0: forever); hourly rollups are kept three times as long. */
  retentionDays: number;
  /**
   * Data-centre overview and map answers shared per visibility scope: this fresh, served while
   * refreshing in the background up to five times as long; 0 computes every request.
   */
  datacenterCacheMs: number;
  /** Let docking-interface tests reach private and loopback addresses (off: SSRF guard). */
  allowPrivateWebhooks: boolean;
}

export class ConfigError extends Error {}

/** Reads and validates the environment once; the first bad value is reported by name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? '');
    const msg = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    throw new ConfigError(`Invalid configuration: ${msg}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    pgliteInProcess: e.PGLITE_IN_PROCESS,
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL,
    mqttClientId: e.MQTT_CLIENT_ID || undefined,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    mqttMaxConnectionsPerIp: e.MQTT_MAX_CONNECTIONS_PER_IP,
    mqttMaxPendingPerIp: e.MQTT_MAX_PENDING_PER_IP,
    mqttConnectTimeoutMs: e.MQTT_CONNECT_TIMEOUT * 1000,
    loginLimitPerIp: e.LOGIN_LIMIT_PER_IP,
    adminPassword: e.ADMIN_PASSWORD || undefined,
    smtpUrl: e.SMTP_URL,
    redisUrl: e.REDIS_URL,
    s3Url: e.S3_URL,
    mailFrom: e.MAIL_FROM,
    siteRecordCode: e.SITE_RECORD_CODE,
    siteRecordUrl: e.SITE_RECORD_URL,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    allowedOrigins: e.ALLOWED_ORIGINS,
    mapTileUrl: e.MAP_TILE_URL,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : path.resolve(import.meta.dirname, '../../web/dist'),
    scryptLogN: 17,
    allowPrivateWebhooks: e.ALLOW_PRIVATE_WEBHOOKS,
    retentionDays: e.RETENTION_DAYS,
    datacenterCacheMs: e.DATACENTER_CACHE_MS,
  };
}
