import type { FastifyInstance } from 'fastify';
import {
  AREAS,
  ORG_API,
  ORG_LOGO_MAX_BYTES,
  addOrgBody,
  getOrgQuery,
  orgIdQuery,
  orgRow,
  updateOrgBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as org from './service.ts';

export function orgRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'org', access: AREAS.campus.permission });
  r({
    method: 'GET',
    url: ORG_API.get,
    summary: '本组织信息（名称、标语、标志、简介、联系方式）',
    query: getOrgQuery,
    response: orgRow,
    handler: ({ caller, query }) => org.getOrg(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: ORG_API.update,
    summary: '修改组织信息（园区管理员）',
    body: updateOrgBody,
    response: orgRow,
    handler: ({ req, caller, body }) => org.updateOrg(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: ORG_API.add,
    summary: '新增组织及其园区管理员（园区后台管理员）',
    body: addOrgBody,
    response: orgRow,
    handler: ({ req, caller, body }) => org.addOrg(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: ORG_API.uploadLogo,
    summary:
      '上传组织标志（园区管理员；请求体为 PNG/JPEG/WebP 图片，不超过 2 MB，服务器重新编码，不支持 SVG）',
    query: orgIdQuery,
    upload: { maxBytes: ORG_LOGO_MAX_BYTES, accept: 'PNG、JPEG 或 WebP 图片' },
    response: orgRow,
    handler: ({ req, caller, query }) => org.uploadLogo(ctx, caller, query.id, req.body, req.ip),
  });
  r({
    method: 'GET',
    url: ORG_API.logo,
    summary: '组织标志图片',
    query: orgIdQuery,
    raw: true,
    handler: async ({ req, reply, caller, query }) => {
      await org.sendLogo(ctx, caller, query.id, req, reply);
      return null;
    },
  });
}
