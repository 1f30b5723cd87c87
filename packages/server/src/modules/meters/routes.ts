import type { FastifyInstance } from 'fastify';
import { AREAS, METERS_API, meterUsage, meterUsageQuery } from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import { attachment } from '../files/send.ts';
import * as meters from './service.ts';

/** Meter usage (issue 15), beside the meters' device calls; the meter area's permission. */
export function meterRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'meters', access: AREAS.meter.permission });

  r({
    method: 'GET',
    url: METERS_API.usage,
    summary: '仪表用量（按时/日/月）',
    query: meterUsageQuery,
    response: meterUsage,
    handler: ({ caller, query }) => meters.usage(ctx, caller, query),
  });

  r({
    method: 'GET',
    url: METERS_API.usageExport,
    summary: '导出仪表用量（CSV）',
    query: meterUsageQuery,
    raw: true,
    handler: async ({ caller, query, reply }) => {
      const f = await meters.usageCsv(ctx, caller, query);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(f.name))
        .header('cache-control', 'private, no-store')
        .send(f.body);
      return null;
    },
  });
}
