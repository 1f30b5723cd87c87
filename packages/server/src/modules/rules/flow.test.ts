import crypto from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_KINDS,
  MESSAGE_API,
  NOTIFY_API,
  RULE_API,
  type NotificationRow,
  type RuleHitRow,
} from '@se/core';
import { sendReport, testApp, type Account, type TestApp } from '../../test/harness.ts';
import { notifierOf } from '../notify/runtime.ts';
import { ruleEngineOf } from './engine.ts';

// Issue 7's "done when", through the public calls only: an operator writes
// `nh3 gt 1.5 and not alarm`, attaches a recipient and a template, and a device crossing
// the line produces the inbox message, the e-mail and the signed webhook.

let t: TestApp;
let owner: Account;
let receiver: http.Server;
let receiverUrl = '';
const hooks: { body: string; signature: string | undefined }[] = [];

async function report(d: { ser_num: string; token: string }, data: Record<string, unknown>) {
  await sendReport(t, d, data);
  await ruleEngineOf(t.ctx)!.idle();
  await notifierOf(t.ctx)!.settle();
  // The delivery worker runs by itself only with background jobs on; here it is driven.
  await notifierOf(t.ctx)!.worker.runOnce();
}

async function ok<T>(r: Promise<{ code: number; message: string; data: T }>): Promise<T> {
  const env = await r;
  expect(env.code, env.message).toBe(200);
  return env.data;
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hooks.push({ body, signature: req.headers['x-signature'] as string | undefined });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
  t = await testApp({ allowPrivateWebhooks: true });
  // visitor + user + dealer + apier (docking interfaces need apier).
  owner = await t.account('flow_owner', 7 | 64);
});
afterAll(async () => {
  await t?.close();
  receiver.close();
});

describe('formula → recipients → template', () => {
  it('a gateway crossing `nh3 gt 1.5 and not alarm` reaches the inbox, the mailbox and the webhook', async () => {
    const o = { token: owner.token };
    const gw = await ok(
      t.post<{ id: number; ser_num: string; token: string }>(
        `${DEVICE_KINDS.gateway.base}/add-gateway`,
        { ser_num: 'FLOW-GW', desc: '北门公厕' },
        o,
      ),
    );
    const docking = await ok(
      t.post<{ id: number; token: string }>(
        '/api/v1/user/add-docking-interface',
        { name: '市平台', url: `${receiverUrl}/hook` },
        o,
      ),
    );
    const email = await ok(
      t.post<{ id: number }>(
        NOTIFY_API.addObject,
        { name: '值班邮箱', type: 'email', target: 'duty@example.com' },
        o,
      ),
    );
    const webhook = await ok(
      t.post<{ id: number }>(
        NOTIFY_API.addObject,
        { name: '市平台', type: 'docking', target: String(docking.id) },
        o,
      ),
    );
    const template = await ok(
      t.post<{ id: number }>(
        NOTIFY_API.addTemplate,
        { name: '氨气超标', content: '{user_name}：{desc}（{ser_num}）氨气 {nh3}' },
        o,
      ),
    );
    const rule = await ok(
      t.post<{ id: number }>(
        RULE_API.add,
        {
          name: '氨气超标且未报警',
          formula: 'nh3 gt 1.5 and not alarm',
          scope: 'devices',
          device_ids: String(gw.id),
          duration_s: 0,
          cooldown_s: 600,
          template_id: template.id,
          object_ids: `${email.id},${webhook.id}`,
        },
        o,
      ),
    );

    // Below the line, and over it while the alarm is already on: nothing.
    await report(gw, { nh3: 1.2, alarm: 0 });
    await report(gw, { nh3: 1.9, alarm: 1 });
    const none = await ok(t.get<{ total: number }>(RULE_API.hits, { rule_id: rule.id }, o));
    expect(none.total).toBe(0);

    // Crossing it.
    await report(gw, { nh3: 1.8, alarm: 0 });
    const hits = await ok(
      t.get<{ list: RuleHitRow[]; total: number }>(RULE_API.hits, { rule_id: rule.id }, o),
    );
    expect(hits.total).toBe(1);

    // The inbox message, with the template filled in.
    const inbox = await ok(
      t.get<{ list: { title: string; content: string; kind: string }[] }>(
        MESSAGE_API.list,
        { kind: 'rule' },
        o,
      ),
    );
    expect(inbox.list).toHaveLength(1);
    expect(inbox.list[0]!.content).toBe('flow_owner：北门公厕（FLOW-GW）氨气 1.8');

    // The e-mail (no SMTP configured here: the outbox is the mailbox).
    const mails = await t.ctx.db.query<{ to_addr: string; body: string }>(
      `SELECT to_addr, body FROM outbox WHERE to_addr = 'duty@example.com'`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('北门公厕（FLOW-GW）氨气 1.8');

    // The webhook, signed with the interface's token.
    expect(hooks).toHaveLength(1);
    const expected = crypto.createHmac('sha256', docking.token).update(hooks[0]!.body).digest('hex');
    expect(hooks[0]!.signature).toBe(`sha256=${expected}`);
    expect(hooks[0]!.body).toContain('FLOW-GW');

    // And the console's history shows the webhook as sent and the mail as it stands: queued in
    // the outbox (no SMTP server here), not sent.
    const history = await ok(
      t.get<{ list: NotificationRow[] }>(NOTIFY_API.notifications, { rule_id: rule.id }, o),
    );
    expect(history.list).toHaveLength(1);
    const status = Object.fromEntries(history.list[0]!.deliveries.map((d) => [d.channel, d.status]));
    expect(status).toMatchObject({ email: 'queued', docking: 'sent' });

    // Still over the line inside the cool-down: no second round.
    await report(gw, { nh3: 2.2, alarm: 0 });
    expect(hooks).toHaveLength(1);
  });
});
