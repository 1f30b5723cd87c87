import type { FastifyInstance } from 'fastify';
import {
  AREAS,
  COMMENT_API,
  addCommentBody,
  addCommentResult,
  commentFilter,
  commentListQuery,
  commentRow,
  commentStats,
  pageOf,
  toiletCard,
  toiletCardQuery,
  updateCommentBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as comments from './service.ts';

export function commentRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'comment', access: AREAS.smartToilet.permission });

  // Public: the page a visitor opens from the QR code on the wall.
  r({
    method: 'GET',
    url: COMMENT_API.toiletCard,
    summary: '评价页的厕所信息（公开）',
    access: 'public',
    query: toiletCardQuery,
    response: toiletCard,
    rateLimit: { max: 120, windowMs: 60_000 },
    handler: ({ query }) => comments.toiletCard(ctx, query.toilet_id),
  });
  r({
    method: 'POST',
    url: COMMENT_API.add,
    summary: '发表评价（公开；每个访客每小时每厕所 3 次，每个 IP 每小时每厕所 20 次）',
    access: 'public',
    body: addCommentBody,
    response: addCommentResult,
    // A cheap first line against floods; the real limits are counted in the database.
    rateLimit: { max: 30, windowMs: 60_000 },
    handler: ({ req, body }) => comments.addComment(ctx, body, req.ip),
  });

  r({
    method: 'GET',
    url: COMMENT_API.list,
    summary: '评价列表（可见的厕所和评价器）',
    query: commentListQuery,
    response: pageOf(commentRow),
    handler: ({ caller, query }) => comments.list(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: COMMENT_API.stats,
    summary: '评价统计（条数、平均星级、各星级与各选项条数）',
    query: commentFilter,
    response: commentStats,
    handler: ({ caller, query }) => comments.stats(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: COMMENT_API.update,
    summary: '隐藏（is_delete=true）或恢复评价',
    body: updateCommentBody,
    response: commentRow,
    handler: ({ req, caller, body }) => comments.setHidden(ctx, caller, body.id, body.is_delete, req.ip),
  });
}
