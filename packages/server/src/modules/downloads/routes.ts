import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import {
  DOWNLOAD_API,
  createDownloadBody,
  downloadFileQuery,
  downloadIdBody,
  downloadIdQuery,
  downloadLink,
  downloadListQuery,
  downloadPage,
  downloadRow,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { attachment } from '../files/send.ts';
import * as downloads from './service.ts';
import { CONTENT_TYPES } from './writers.ts';

/** 下载中心: the caller's export jobs, and their files through short-lived signed links. */
export function downloadRoutes(app: FastifyInstance, ctx: AppContext) {
  const tag = 'download';
  route(app, ctx, {
    method: 'GET',
    url: DOWNLOAD_API.list,
    summary: '我的导出任务（最新的在前）',
    tag,
    access: 0,
    query: downloadListQuery,
    response: downloadPage,
    handler: ({ caller, query }) => downloads.list(ctx, caller, query),
  });
  route(app, ctx, {
    method: 'POST',
    url: DOWNLOAD_API.create,
    summary: '新建导出任务（name: 导出类型；params: 与列表相同的筛选条件，JSON）；在后台生成文件',
    tag,
    access: 0,
    body: createDownloadBody,
    response: downloadRow,
    handler: ({ caller, body }) => downloads.create(ctx, caller, body),
  });
  route(app, ctx, {
    method: 'GET',
    url: DOWNLOAD_API.get,
    summary: '导出任务详情（进度）',
    tag,
    access: 0,
    query: downloadIdQuery,
    response: downloadRow,
    handler: ({ caller, query }) => downloads.get(ctx, caller, query.id),
  });
  route(app, ctx, {
    method: 'POST',
    url: DOWNLOAD_API.remove,
    summary: '删除导出任务及其文件（进行中的任务随之停止）',
    tag,
    access: 0,
    body: downloadIdBody,
    handler: ({ caller, body }) => downloads.remove(ctx, caller, body.id),
  });
  route(app, ctx, {
    method: 'GET',
    url: DOWNLOAD_API.sign,
    summary: '文件的临时下载链接（5 分钟内有效，无需登录头）',
    tag,
    access: 0,
    query: downloadIdQuery,
    response: downloadLink,
    handler: ({ caller, query }) => downloads.link(ctx, caller, query.id),
  });
  route(app, ctx, {
    method: 'GET',
    url: DOWNLOAD_API.file,
    summary: '下载文件（签名链接，由 file-url 取得）',
    tag,
    // The signature is the credential: a browser following a link sends no token header.
    access: 'public',
    query: downloadFileQuery,
    raw: true,
    handler: async ({ query, reply }) => {
      const f = await downloads.openSigned(ctx, query);
      reply
        .header('content-type', CONTENT_TYPES[f.format])
        .header('content-length', f.size)
        .header('content-disposition', attachment(f.name))
        .header('cache-control', 'private, no-store')
        .send(fs.createReadStream(f.file));
      return null;
    },
  });
}
