import { SITE_API } from '@se/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { ping } from '../../db/maintenance.ts';
import { route } from '../../http/route.ts';

export const SYSTEM_NAME = '智慧环境管理系统';
export const VERSION = 'V3.9.3';

const siteData = z.object({
  name: z.string(),
  version: z.string(),
  record_code: z.string(),
  record_url: z.string(),
  /** Tile URL template ({z}/{x}/{y}) for the data-centre maps; '' draws the bundled map. */
  map_tile_url: z.string(),
});

export function siteRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: SITE_API.info,
    summary: '站点信息（名称、版本、备案号）',
    tag: 'site',
    access: 'public',
    response: siteData,
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
