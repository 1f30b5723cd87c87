import type { FastifyError, FastifyInstance } from 'fastify';
import { CODE } from '@se/core';
import { AppError } from '../errors.ts';
import { bodyLimitOf, registry } from './route.ts';

const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [CODE.tooLarge, '请求内容过大'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [CODE.badRequest, '不支持的请求格式，请使用 JSON 或表单提交'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [CODE.badRequest, '请求内容为空'],
  FST_ERR_CTP_INVALID_JSON_BODY: [CODE.badRequest, '请求内容不是有效的 JSON'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [CODE.badRequest, '请求长度不正确'],
};

/**
 * Turns every error into the envelope. HTTP status stays 200 (ARCHITECTURE §3); unknown
 * errors are logged with the request id and answered without any detail.
 */
export function errorEnvelopes(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(200).send({ code: err.code, message: err.message, data: err.data });
    }
    const spec = err.code ? registry.get(`${req.method} ${req.routeOptions.url}`) : undefined;
    const own = spec && bodyLimitOf(spec);
    if (own && err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(200).send({ code: CODE.tooLarge, message: own.tooLarge, data: null });
    }
    const upload = spec?.upload;
    if (upload && err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .code(200)
        .send({ code: CODE.badRequest, message: `请上传 ${upload.accept} 文件`, data: null });
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return reply.code(200).send({ code: known[0], message: known[1], data: null });
    if (err instanceof SyntaxError || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
      return reply.code(200).send({ code: CODE.badRequest, message: '请求格式不正确', data: null });
    }
    req.log.error({ err, reqId: req.id, url: req.url }, 'unhandled error');
    return reply
      .code(200)
      .send({ code: CODE.server, message: `服务器内部错误，请稍后再试（请求编号 ${req.id}）`, data: null });
  });
}
