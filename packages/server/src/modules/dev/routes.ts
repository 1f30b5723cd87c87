import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEV_API, PERMISSION, pageOf, pageQuery } from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { listOutbox } from './repo.ts';

const mail = z.object({
  id: z.number(),
  to_addr: z.string(),
  subject: z.string(),
  body: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
});

/** Developer tools: the mail outbox, readable when no SMTP server is configured. */
export function devRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: DEV_API.outbox,
    summary: '邮件发件箱（开发者）',
    tag: 'dev',
    access: PERMISSION.develop,
    query: pageQuery.extend({ to_addr: z.string().trim().max(254).optional() }),
    response: pageOf(mail),
    handler: async ({ query }) => {
      const to = query.to_addr ? query.to_addr.toLowerCase() : null;
      const r = await listOutbox(ctx.db, to, query.page_size, (query.page - 1) * query.page_size);
      return { ...r, page: query.page, page_size: query.page_size };
    },
  });
}
