import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEVELOP_API, PERMISSION, outboxMail, pageOf, pageQuery } from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { listOutbox } from './repo.ts';

/** Developer tools: the mail outbox, readable when no SMTP server is configured. */
export function developRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: DEVELOP_API.outbox,
    summary: '邮件发件箱（开发者）',
    tag: 'develop',
    access: PERMISSION.develop,
    query: pageQuery.extend({ to_addr: z.string().trim().max(254).optional() }),
    response: pageOf(outboxMail),
    handler: async ({ query }) => {
      const to = query.to_addr ? query.to_addr.toLowerCase() : null;
      const r = await listOutbox(ctx.db, to, query.page_size, (query.page - 1) * query.page_size);
      return { ...r, page: query.page, page_size: query.page_size };
    },
  });
}
