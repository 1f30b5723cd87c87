import type { FastifyInstance } from 'fastify';
import { CODE, DEVICE_REPORT_API, DEVICE_TOKEN_HEADER, httpReportBody, httpReportResult } from '@se/core';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { route } from '../http/route.ts';

/** The HTTP transport: the same messages as MQTT, the token in a header, answered after commit. */
export function ingestRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'POST',
    url: DEVICE_REPORT_API,
    summary: '设备上报（HTTP；令牌放在 X-Device-Token 头；单条或 messages 批量）',
    tag: 'device',
    access: 'public',
    body: httpReportBody,
    response: httpReportResult,
    handler: async ({ req, body }) => {
      const token = req.headers[DEVICE_TOKEN_HEADER];
      const device = await ctx.directory.authenticate(
        body.ser_num,
        typeof token === 'string' ? token : undefined,
      );
      if (!device) throw new AppError(CODE.unauthorized, '设备认证失败：序列号或令牌错误');
      const { ser_num: _ser, messages, ...single } = body;
      const list = messages ?? [single];
      const outcomes = await Promise.all(list.map((m) => ctx.pipeline.submitRaw(device, m)));
      const rejected: { index: number; error: string }[] = [];
      let accepted = 0;
      let duplicates = 0;
      outcomes.forEach((o, index) => {
        if (!o.ok) rejected.push({ index, error: o.error });
        else if (o.duplicate) duplicates++;
        else accepted++;
      });
      return { accepted, duplicates, rejected };
    },
  });
}
