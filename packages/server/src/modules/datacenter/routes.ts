import type { FastifyInstance } from 'fastify';
import { AREAS, DATACENTER_API, datacenterMap, datacenterOverview, datacenterQuery } from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import * as datacenter from './service.ts';

/**
 * The three smart-toilet data centres read under the dataCenter area; /st-data-center (the
 * toilet/gateway one inside the smart-toilet screen) reads the same numbers under smartToilet.
 */
export function datacenterRoutes(app: FastifyInstance, ctx: AppContext) {
  // A dozen queries per overview, and any self-registered visitor reaches /st-data-center:
  // the page refreshes once a minute (plus a refetch per new gateway), this leaves room for tabs.
  const perUser = { max: 30, windowMs: 60_000 };
  const areas = [
    { overview: DATACENTER_API.overview, map: DATACENTER_API.map, access: AREAS.dataCenter.permission },
    { overview: DATACENTER_API.stOverview, map: DATACENTER_API.stMap, access: AREAS.smartToilet.permission },
  ];
  for (const a of areas) {
    route(app, ctx, {
      method: 'GET',
      url: a.overview,
      summary: '数据中心总览（总数、占用、空气质量排行、报警、评价趋势、除臭液余量、最新评价）',
      tag: 'datacenter',
      access: a.access,
      userRateLimit: perUser,
      query: datacenterQuery,
      response: datacenterOverview,
      handler: ({ caller, query }) => datacenter.overview(ctx, caller, query.since),
    });
    route(app, ctx, {
      method: 'GET',
      url: a.map,
      summary: '数据中心地图（有坐标的厕所、各省数量）',
      tag: 'datacenter',
      access: a.access,
      userRateLimit: perUser,
      query: datacenterQuery,
      response: datacenterMap,
      handler: ({ caller, query }) => datacenter.map(ctx, caller, query.since),
    });
  }
}
