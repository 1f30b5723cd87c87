import type { FastifyInstance } from 'fastify';
import {
  AREAS,
  CODE,
  MEDIA_API,
  MEDIA_CHUNK_TYPE,
  addTextBody,
  addUrlBody,
  itemIdQuery,
  mediaItemRow,
  mediaLinkQuery,
  mediaListQuery,
  mediaPage,
  mediaQuota,
  mediaReviewQuery,
  quotaQuery,
  removeBody,
  renameBody,
  reviewDecideBody,
  setQuotaBody,
  startUploadBody,
  updateTextBody,
  uploadChunkQuery,
  uploadIdQuery,
  uploadState,
  type MediaKind,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { areaRoutes } from '../../http/route.ts';
import { sendStored } from '../files/send.ts';
import * as media from './service.ts';
import { checkMediaLink, type MediaVariant } from './signing.ts';
import * as uploads from './uploads.ts';
import { findItem } from './repo.ts';

const EXT: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'image/gif': '.gif',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
};

/** 流媒体: the picture, video and text libraries, uploads, review and safe serving. */
export function mediaRoutes(app: FastifyInstance, ctx: AppContext) {
  // A chunk's body is left as the request stream: the service pipes it to disk.
  app.addContentTypeParser(MEDIA_CHUNK_TYPE, (_req, payload, done) => done(null, payload));

  const r = areaRoutes(app, ctx, { tag: 'media', access: AREAS.media.permission });

  const lists: [string, MediaKind, string][] = [
    [MEDIA_API.pictures, 'picture', '图片库'],
    [MEDIA_API.videos, 'video', '视频库'],
    [MEDIA_API.texts, 'text', '文字库'],
  ];
  for (const [url, kind, label] of lists) {
    r({
      method: 'GET',
      url,
      summary: `${label}（本人及下级账号的内容）`,
      query: mediaListQuery,
      response: mediaPage,
      handler: ({ caller, query }) => media.list(ctx, caller, kind, query),
    });
  }
  r({
    method: 'GET',
    url: MEDIA_API.item,
    summary: '一条媒体内容',
    query: itemIdQuery,
    response: mediaItemRow,
    handler: ({ caller, query }) => media.row(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: MEDIA_API.addUrl,
    summary: '添加网络地址的图片或视频（http、https、ftp、rtsp、mms；服务器不访问该地址）',
    body: addUrlBody,
    response: mediaItemRow,
    handler: ({ req, caller, body }) => media.addUrl(ctx, caller, req.ip, body),
  });
  r({
    method: 'POST',
    url: MEDIA_API.addText,
    summary: '新增文字通知',
    body: addTextBody,
    response: mediaItemRow,
    handler: ({ req, caller, body }) => media.addText(ctx, caller, req.ip, body),
  });
  r({
    method: 'POST',
    url: MEDIA_API.updateText,
    summary: '修改文字通知（正文、样式改动后需重新审核）',
    body: updateTextBody,
    response: mediaItemRow,
    handler: ({ req, caller, body }) => media.updateText(ctx, caller, req.ip, body),
  });
  r({
    method: 'POST',
    url: MEDIA_API.rename,
    summary: '重命名媒体内容',
    body: renameBody,
    response: mediaItemRow,
    handler: ({ req, caller, body }) => media.rename(ctx, caller, req.ip, body.id, body.name),
  });
  r({
    method: 'POST',
    url: MEDIA_API.remove,
    summary: '删除媒体内容（节目单正在使用时拒绝，并列出节目单）',
    body: removeBody,
    handler: ({ req, caller, body }) => media.remove(ctx, caller, req.ip, body.id),
  });

  // Review (审核)
  r({
    method: 'GET',
    url: MEDIA_API.review,
    summary: '待审核内容（下级账号的内容；经销商、OEM、开发者）',
    query: mediaReviewQuery,
    response: mediaPage,
    handler: ({ caller, query }) => media.reviewList(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: MEDIA_API.reviewDecide,
    summary: '审核：通过，或驳回并说明原因',
    body: reviewDecideBody,
    response: mediaItemRow,
    handler: ({ req, caller, body }) => media.decide(ctx, caller, req.ip, body),
  });

  // Quota
  r({
    method: 'GET',
    url: MEDIA_API.quota,
    summary: '存储配额与已用空间',
    query: quotaQuery,
    response: mediaQuota,
    handler: ({ caller, query }) => media.quota(ctx, caller, query.target_user_id),
  });
  r({
    method: 'POST',
    url: MEDIA_API.setQuota,
    summary: '设置下级账号的存储配额（MB）',
    body: setQuotaBody,
    response: mediaQuota,
    handler: ({ req, caller, body }) =>
      media.setQuota(ctx, caller, req.ip, body.target_user_id, body.quota_mb),
  });

  // Chunked resumable uploads
  r({
    method: 'POST',
    url: MEDIA_API.uploads,
    summary: '开始（或续传）分段上传：同一文件指纹返回同一上传及服务器已收到的字节数',
    body: startUploadBody,
    response: uploadState,
    handler: ({ caller, body }) => uploads.start(ctx, caller, body),
  });
  r({
    method: 'GET',
    url: MEDIA_API.upload,
    summary: '上传进度（服务器已收到的字节数）',
    query: uploadIdQuery,
    response: uploadState,
    handler: ({ caller, query }) => uploads.state(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: MEDIA_API.uploadChunk,
    summary: `上传一段（请求体为原始字节，Content-Type: ${MEDIA_CHUNK_TYPE}；offset 须等于服务器已收到的字节数）`,
    query: uploadChunkQuery,
    response: uploadState,
    handler: ({ req, caller, query }) => uploads.chunk(ctx, caller, query.id, query.offset, req.body),
  });
  r({
    method: 'POST',
    url: MEDIA_API.uploadFinish,
    summary: '完成上传：检查文件内容（图片重新编码、视频探测编码），生成缩略图/封面，进入待审核',
    body: uploadIdQuery,
    response: mediaItemRow,
    handler: ({ req, caller, body }) => uploads.finish(ctx, caller, req.ip, body.id),
  });
  r({
    method: 'POST',
    url: MEDIA_API.uploadCancel,
    summary: '取消上传',
    body: uploadIdQuery,
    handler: ({ caller, body }) => uploads.cancel(ctx, caller, body.id),
  });

  // Safe serving: signed links (a browser's <img>/<video> sends no token header).
  const serve = (url: string, variant: MediaVariant, summary: string) =>
    r({
      method: 'GET',
      url,
      summary,
      access: 'public',
      query: mediaLinkQuery,
      raw: true,
      handler: async ({ req, reply, query }) => {
        const ok = await checkMediaLink(ctx, query.id, variant, query.expires, query.sig);
        if (ok === 'expired') throw new AppError(CODE.expired, '链接已过期，请刷新页面');
        if (ok !== 'ok') throw notFound('文件不存在');
        const item = await findItem(ctx.db, query.id);
        const key = variant === 'file' ? item?.storage_key : (item?.thumb_key ?? item?.poster_key);
        if (!item || item.is_delete || !key) throw notFound('文件不存在');
        const ext = variant === 'file' ? (EXT[item.mime] ?? '') : '.webp';
        await sendStored(ctx, req, reply, key, {
          filename: `${item.name}${variant === 'thumb' ? '-缩略图' : ''}${ext}`,
          inline: query.download !== '1',
        });
        return null;
      },
    });
  serve(MEDIA_API.file, 'file', '媒体文件（签名链接；nosniff、sandbox、支持 Range 拖动）');
  serve(MEDIA_API.thumb, 'thumb', '缩略图或视频封面（签名链接）');
}
