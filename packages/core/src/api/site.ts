/** Public site information (name, version, ICP record, map tiles). */
export const SITE_API = {
  info: '/api/v1/site',
} as const;

/** Developer tools (develop permission only). */
export const DEVELOP_API = {
  /** The mail outbox, readable when no SMTP server is configured. */
  outbox: '/api/v1/dev/outbox',
} as const;
