import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CODE,
  DEVICE_REPORT_API,
  DEVICE_TOKEN_HEADER,
  MAX_MESSAGE_BYTES,
  MAX_REPORT_BODY_BYTES,
  TOPIC,
  httpReportBody,
  httpReportResult,
} from '@se/core';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { route } from '../http/route.ts';

const TOO_LARGE = `上报内容过大：一次请求最多 ${MAX_REPORT_BODY_BYTES / 1024 / 1024} MB，单条消息最多 ${MAX_MESSAGE_BYTES / 1024} KB，请分批上报`;

/** The HTTP transport: the same messages as MQTT, the token in a header, answered after commit. */
export function ingestRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'POST',
    url: DEVICE_REPORT_API,
    summary: '设备上报（HTTP；令牌放在 X-Device-Token 头；单条或 messages 批量）',
    tag: 'device',
    access: 'public',
    // Its own limit, in words a device maker can act on.
    bodyLimit: { bytes: MAX_REPORT_BODY_BYTES, tooLarge: TOO_LARGE },
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

  // An external broker asks these two before letting a device in or letting it publish or
  // subscribe. They answer HTTP 200 with {result: 'allow'|'deny'} (EMQX 5) and {ok} (the
  // JSON mode of mosquitto-go-auth); docs/deploy.md shows both brokers' settings.
  const verdict = (ok: boolean) => ({ result: ok ? 'allow' : 'deny', ok, error: ok ? '' : 'denied' });
  const brokerLimit = { max: 6000, windowMs: 60_000 };

  app.post('/api/v1/device/mqtt-auth', async (req) => {
    const b = z
      .object({
        username: z.string().max(64),
        password: z.string().max(200),
        clientid: z.string().max(64).optional(),
      })
      .safeParse(req.body);
    if (!b.success || !ctx.limiter.hit(`mqtt-auth|${req.ip}`, brokerLimit.max, brokerLimit.windowMs))
      return verdict(false);
    if (b.data.clientid !== undefined && b.data.clientid !== b.data.username) return verdict(false);
    return verdict((await ctx.directory.authenticate(b.data.username, b.data.password)) !== null);
  });

  app.post('/api/v1/device/mqtt-acl', async (req) => {
    const b = z
      .object({
        username: z.string().max(64),
        topic: z.string().max(200),
        // EMQX: action publish|subscribe; go-auth: acc 1 read, 2 write, 4 subscribe.
        action: z.enum(['publish', 'subscribe']).optional(),
        acc: z.coerce.number().int().optional(),
      })
      .safeParse(req.body);
    if (!b.success) return verdict(false);
    const { username, topic, action, acc } = b.data;
    const publish = action === 'publish' || acc === 2;
    return verdict(publish ? topic === TOPIC.up(username) : topic === TOPIC.down(username));
  });
}
