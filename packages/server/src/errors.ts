import { CODE } from '@se/core';

/** The one error type: a body code and a Chinese message a person can act on. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string) => new AppError(CODE.badRequest, msg);
export const unauthorized = (msg = '请先登录') => new AppError(CODE.unauthorized, msg);
export const forbidden = (msg = '没有权限执行此操作') => new AppError(CODE.forbidden, msg);
export const notFound = (msg = '数据不存在') => new AppError(CODE.notFound, msg);
export const conflict = (msg: string) => new AppError(CODE.conflict, msg);
export const rateLimited = (msg = '操作过于频繁，请稍后再试') => new AppError(CODE.rateLimited, msg);
