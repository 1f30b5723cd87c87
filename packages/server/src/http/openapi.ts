import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { compressJson } from './compress.ts';
import { registry } from './route.ts';

const jsonSchema = (s: z.ZodType, io: 'input' | 'output') => {
  try {
    return z.toJSONSchema(s, { io, unrepresentable: 'any' });
  } catch {
    return {};
  }
};

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export function openApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of registry.values()) {
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: [r.tag],
      security: r.access === 'public' ? [] : [{ token: [] }],
      'x-permission': r.access,
    };
    if (r.query) {
      const s = jsonSchema(r.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      op.parameters = Object.entries(s.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: s.required?.includes(name) ?? false,
        schema,
      }));
    }
    if (r.upload) {
      const mb = Math.round(r.upload.maxBytes / 1024 / 1024);
      op.requestBody = {
        description: `文件本身作为请求体（${r.upload.accept}），最大 ${mb} MB`,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      };
    }
    if (r.body) {
      const schema = jsonSchema(r.body, 'input');
      op.requestBody = {
        content: { 'application/x-www-form-urlencoded': { schema }, 'application/json': { schema } },
      };
    }
    op.responses = {
      200: {
        description: '{code, message, data}; code 200 = 成功',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                code: { type: 'integer' },
                message: { type: 'string' },
                data: r.response ? jsonSchema(r.response, 'output') : { type: 'null' },
              },
            },
          },
        },
      },
    };
    (paths[r.url] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: '智慧环境管理系统 API', version },
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } },
    },
    paths,
  };
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function docsRoutes(app: FastifyInstance, version: string) {
  app.get('/api/docs/openapi.json', { onSend: compressJson }, async () => openApiDocument(version));
  // A readable page without scripts (the CSP allows none inline) and without a CDN.
  app.get('/api/docs', async (_req, reply) => {
    const doc = openApiDocument(version);
    const rows = Object.entries(doc.paths)
      .flatMap(([url, ops]) =>
        Object.entries(ops).map(([method, op]) => {
          const o = op as Record<string, unknown>;
          const detail = JSON.stringify({ parameters: o.parameters, requestBody: o.requestBody }, null, 2);
          return `<details><summary><b>${method.toUpperCase()}</b> <code>${esc(url)}</code> — ${esc(
            String(o.summary),
          )}</summary><pre>${esc(detail)}</pre></details>`;
        }),
      )
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>API 文档</title>
<style>body{font:14px/1.5 sans-serif;margin:2em}pre{background:#f5f5f5;padding:1em;overflow:auto}</style></head>
<body><h1>${esc(doc.info.title)} ${esc(version)}</h1><p>机器可读版本：<a href="/api/docs/openapi.json">openapi.json</a>。
所有接口返回 HTTP 200 与 <code>{code, message, data}</code>。</p>${rows}</body></html>`;
  });
}
