import { z } from 'zod';

/** Public site information (name, version, ICP record, map tiles). */
export const SITE_API = {
  info: '/api/v1/site',
} as const;

export const siteInfo = z.object({
  name: z.string(),
  version: z.string(),
  record_code: z.string(),
  record_url: z.string(),
  /** Tile URL template ({z}/{x}/{y}) for the data-centre maps; '' draws the bundled map. */
  map_tile_url: z.string(),
});
export type SiteInfo = z.infer<typeof siteInfo>;

/** Developer tools (develop permission only). */
export const DEVELOP_API = {
  /** The mail outbox, readable when no SMTP server is configured. */
  outbox: '/api/v1/dev/outbox',
} as const;

/** One row of the mail outbox (GET DEVELOP_API.outbox). */
export const outboxMail = z.object({
  id: z.number(),
  to_addr: z.string(),
  subject: z.string(),
  body: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMail>;
