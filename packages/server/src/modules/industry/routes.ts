import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  INDUSTRY_API,
  exposureQuery,
  exposureReport,
  monitorListQuery,
  monitorRow,
  pageOf,
  siteRow,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as industry from './service.ts';

/** Smart industry (/smart-industrial): monitors, sites and occupational exposure. */
export function industryRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'industry', access: AREAS.industry.permission });

  r({
    method: 'GET',
    url: INDUSTRY_API.monitors,
    summary: '工业监测仪列表（最新读数、等级、告警）',
    query: monitorListQuery,
    response: pageOf(monitorRow),
    handler: ({ caller, query }) => industry.monitors(ctx, caller, query),
  });

  r({
    method: 'GET',
    url: INDUSTRY_API.sites,
    summary: '工业站点与作业区域（筛选用）',
    response: z.array(siteRow),
    handler: ({ caller }) => industry.sites(ctx, caller),
  });

  r({
    method: 'GET',
    url: INDUSTRY_API.exposure,
    summary: '职业接触评估（按作业区域与班次，GBZ 2.1-2019）',
    query: exposureQuery,
    response: exposureReport,
    userRateLimit: { max: 60, windowMs: 60_000 },
    handler: ({ caller, query }) => industry.exposure(ctx, caller, query),
  });
}
