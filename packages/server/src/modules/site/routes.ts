import { SITE_API, siteInfo } from '@se/core';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ping } from '../../db/maintenance.ts';
import { route } from '../../http/route.ts';

export const SYSTEM_NAME = '智慧环境管理系统';
export const VERSION = 'V3.9.3';

export function siteRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: SITE_API.info,
    summary: '站点信息（名称、版本、备案号）',
    tag: 'site',
    access: 'public',
    response: siteInfo,
    handler: async () => ({
      name: SYSTEM_NAME,
      version: VERSION,
      record_code: ctx.config.siteRecordCode,
      record_url: ctx.config.siteRecordUrl ?? '',
      map_tile_url: ctx.config.mapTileUrl ?? '',
    }),
  });

  // Health is for load balancers and probes: plain HTTP status, no envelope.
  app.get('/api/health', async (_req, reply) => {
    const t0 = performance.now();
    const db = await ping(ctx.db).then(
      () => true,
      () => false,
    );
    const dbMs = Math.round((performance.now() - t0) * 100) / 100;
    const broker = ctx.broker ? ctx.broker.ready() : null;
    const ok = db && broker !== false;
    reply.code(ok ? 200 : 503);
    return {
      status: ok ? 'ok' : 'degraded',
      db: { ok: db, ms: dbMs, kind: ctx.db.kind },
      mqtt: { ok: broker },
    };
  });
}
