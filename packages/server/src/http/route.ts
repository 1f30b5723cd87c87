import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CODE, canAccess, type Need } from '@se/core';
import type { AppContext, Caller } from '../context.ts';
import { JsonRows } from '../db/json-rows.ts';
import { AppError, forbidden, rateLimited } from '../errors.ts';
import { compressJson } from './compress.ts';
import { parseOrThrow } from './validation.ts';

/**
 * 'public' routes need no session; a number names the permission bits a caller must hold;
 * 'manager' needs a caller who may assign some role.
 */
export type Access = 'public' | Need;

export interface RouteSpec<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType> {
  method: 'GET' | 'POST';
  url: string;
  summary: string;
  tag: string;
  access: Access;
  body?: B;
  query?: Q;
  /** Schema of `data` in the envelope, for the OpenAPI document. */
  response?: R;
  /** Per-IP limit on this route. */
  rateLimit?: { max: number; windowMs: number };
  /**
   * Per signed-in account limit, for calls that cost far more than a normal request (a
   * dashboard's dozen queries, a spreadsheet): any self-registered visitor can reach them.
   */
  userRateLimit?: { max: number; windowMs: number };
  /** The handler answers through `reply` itself (files); its return value is ignored. */
  raw?: boolean;
  /** The body is an uploaded file (see UploadSpec). */
  upload?: UploadSpec;
  /**
   * A body cap other than the API's 1 MB, with the words a too-large request is answered
   * with (upload routes get theirs from `upload`).
   */
  bodyLimit?: BodyLimit;
  handler: (ctx: {
    req: FastifyRequest;
    reply: FastifyReply;
    body: z.output<B>;
    query: z.output<Q>;
    /** The signed-in caller; on 'public' routes read the optional `req.caller` instead. */
    caller: Caller;
  }) => Promise<Answer<z.input<R>> | null | undefined>;
}

/**
 * What a handler answers as `data`: the schema's value, where any array field may come as
 * JSON text already (JsonRows: a page's rows as the database wrote them, a chart's points as
 * a cache keeps them), sent as it is.
 */
export type Answer<T> = T | { [K in keyof T]: T[K] extends (infer E)[] ? T[K] | JsonRows<E> : T[K] };

/**
 * A route whose body is the raw bytes of an uploaded file (app.ts parses the file types as
 * a Buffer). Its body cap replaces the API's 1 MB, and every such route is swept with
 * hostile files by http/uploads-fuzz.test.ts.
 */
export interface UploadSpec {
  maxBytes: number;
  /** What to upload, for messages: e.g. ".xlsx 或 .csv". */
  accept: string;
}

export interface BodyLimit {
  bytes: number;
  /** The answer's message when a body is larger. */
  tooLarge: string;
}

/** The route's own body cap: declared, or an upload's. */
export function bodyLimitOf(spec: Pick<RegisteredRoute, 'bodyLimit' | 'upload'>): BodyLimit | undefined {
  if (spec.bodyLimit) return spec.bodyLimit;
  if (!spec.upload) return undefined;
  return {
    bytes: spec.upload.maxBytes,
    tooLarge: `文件不能超过${Math.round(spec.upload.maxBytes / 1024 / 1024)} MB`,
  };
}

export interface RegisteredRoute {
  method: string;
  url: string;
  summary: string;
  tag: string;
  access: Access;
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  upload?: UploadSpec;
  bodyLimit?: BodyLimit;
}

/** Every route defined through `route()`, for the OpenAPI document. */
export const registry = new Map<string, RegisteredRoute>();

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Reads the session token from Authorization or X-Token, quotes and "Bearer " stripped. */
export function tokenOf(req: FastifyRequest): string | null {
  const raw = req.headers['x-token'] ?? req.headers.authorization;
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (!v) return null;
  const t = v
    .replace(/^Bearer\s+/i, '')
    .replace(/^["']+|["']+$/g, '')
    .trim();
  return t && t !== 'null' && t !== 'undefined' ? t : null;
}

/** A route of an area whose tag and usual access are fixed once (a spec may override them). */
export type AreaRouteSpec<B extends z.ZodType, Q extends z.ZodType, R extends z.ZodType> = Omit<
  RouteSpec<B, Q, R>,
  'tag' | 'access'
> &
  Partial<Pick<RouteSpec<B, Q, R>, 'tag' | 'access'>>;

/**
 * The route declarer of one area: `const r = areaRoutes(app, ctx, { tag, access })`, then
 * `r({ method, url, summary, ... })` for each route.
 */
export function areaRoutes(app: FastifyInstance, ctx: AppContext, area: { tag: string; access: Access }) {
  return <
    B extends z.ZodType = z.ZodUndefined,
    Q extends z.ZodType = z.ZodUndefined,
    R extends z.ZodType = z.ZodNull,
  >(
    spec: AreaRouteSpec<B, Q, R>,
  ) => route<B, Q, R>(app, ctx, { ...area, ...spec });
}

/**
 * Declares one API route: parse (zod) → access check → handler → envelope. Handlers stay
 * thin and return `data`; errors are AppErrors turned into envelopes by the error handler.
 */
export function route<
  B extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodNull,
>(app: FastifyInstance, ctx: AppContext, spec: RouteSpec<B, Q, R>) {
  registry.set(`${spec.method} ${spec.url}`, spec as unknown as RegisteredRoute);
  const limit = spec.rateLimit;
  app.route({
    method: spec.method,
    url: spec.url,
    bodyLimit: bodyLimitOf(spec)?.bytes,
    // JSON envelopes are compressed above a size; a raw route's file keeps its bytes.
    ...(spec.raw ? {} : { onSend: compressJson }),
    handler: async (req, reply) => {
      if (limit && !ctx.limiter.hit(`${spec.url}|${req.ip}`, limit.max, limit.windowMs)) {
        throw rateLimited();
      }
      let caller: Caller | null = null;
      const token = tokenOf(req);
      if (spec.access !== 'public' || token) {
        const r = await ctx.sessions.resolve(token);
        if (r.ok) caller = r.caller;
        else if (spec.access !== 'public') throw new AppError(r.code, r.message);
      }
      if (spec.access !== 'public' && caller && !canAccess(caller.permission, spec.access)) {
        throw forbidden();
      }
      const perUser = spec.userRateLimit;
      if (perUser && caller && !ctx.limiter.hit(`${spec.url}|u${caller.id}`, perUser.max, perUser.windowMs)) {
        throw rateLimited();
      }
      req.caller = caller;
      const body = spec.body ? parseOrThrow(spec.body, req.body) : undefined;
      const query = spec.query ? parseOrThrow(spec.query, req.query) : undefined;
      const data = await spec.handler({
        req,
        reply,
        body: body as z.output<B>,
        query: query as z.output<Q>,
        caller: caller as Caller,
      });
      if (spec.raw) return reply;
      if (holdsJsonText(data)) return reply.type('application/json; charset=utf-8').send(jsonAnswer(data));
      return { code: CODE.ok, message: '成功', data: data ?? null };
    },
  });
}

const holdsJsonText = (data: unknown): data is Record<string, unknown> => {
  if (typeof data !== 'object' || data === null) return false;
  for (const k in data) if ((data as Record<string, unknown>)[k] instanceof JsonRows) return true;
  return false;
};

/**
 * The envelope of an answer some of whose fields are JSON text already: those spliced in as
 * they are, the others written as JSON.stringify would, in the answer's order.
 */
export function jsonAnswer(data: Record<string, unknown>) {
  const fields: string[] = [];
  for (const [k, v] of Object.entries(data)) {
    const text = v instanceof JsonRows ? v.text : JSON.stringify(v);
    if (text !== undefined) fields.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{"code":${CODE.ok},"message":"成功","data":{${fields.join(',')}}}`;
}
