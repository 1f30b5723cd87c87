import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  DELIVERY_MAX_ATTEMPTS,
  MESSAGE_API,
  NOTIFY_API,
  type DeliveryRow,
  type MessageRow,
  type NotificationRow,
  type NotifyObject,
} from '@se/core';
import { Mailer } from '../../mail/mailer.ts';
import { addDevice, sendReport, testApp, type Account, type TestApp } from '../../test/harness.ts';
import { dispatchRuleHit, type RuleHit } from './dispatch.ts';
import { notifierOf } from './runtime.ts';
import { NO_SMTP } from './worker.ts';

// ---- a local HTTP receiver that checks signatures and can be told to fail ----

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
  signatureOk: boolean | null;
}
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
/** Per path: how many more requests to answer 500. */
const failures = new Map<string, number>();
let dockingToken = '';

function startReceiver() {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      const sig = req.headers['x-signature'];
      const expected = `sha256=${crypto.createHmac('sha256', dockingToken).update(body).digest('hex')}`;
      received.push({
        path,
        headers: req.headers,
        body,
        json: JSON.parse(body) as Record<string, unknown>,
        signatureOk: sig === undefined ? null : sig === expected,
      });
      const left = failures.get(path) ?? 0;
      if (left > 0) {
        failures.set(path, left - 1);
        res.writeHead(500).end('boom');
        return;
      }
      if (path.startsWith('/robot-bad')) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"errcode":93000,"errmsg":"invalid webhook url"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"errcode":0,"errmsg":"ok"}');
    });
  });
  return new Promise<void>((ok) =>
    receiver.listen(0, '127.0.0.1', () => {
      receiverUrl = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`;
      ok();
    }),
  );
}

// ---- a tiny SMTP receiver (no TLS, no auth) ----

interface SmtpMail {
  from: string;
  to: string[];
  data: string;
}
function smtpServer(opts: { refuseRcpt?: boolean } = {}) {
  const mails: SmtpMail[] = [];
  const server = net.createServer((sock) => {
    let buf = '';
    let inData = false;
    let cur: SmtpMail = { from: '', to: [], data: '' };
    sock.write('220 test ESMTP\r\n');
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          cur.data = buf.slice(0, end);
          buf = buf.slice(end + 5);
          inData = false;
          mails.push(cur);
          cur = { from: '', to: [], data: '' };
          sock.write('250 OK queued\r\n');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') sock.write('250 test\r\n');
        else if (cmd === 'MAIL') {
          cur.from = line;
          sock.write('250 OK\r\n');
        } else if (cmd === 'RCPT') {
          if (opts.refuseRcpt) sock.write('550 no such user\r\n');
          else {
            cur.to.push(line);
            sock.write('250 OK\r\n');
          }
        } else if (cmd === 'DATA') {
          inData = true;
          sock.write('354 go ahead\r\n');
        } else if (cmd === 'QUIT') {
          sock.end('221 bye\r\n');
        } else sock.write('250 OK\r\n');
      }
    });
    sock.on('error', () => {});
  });
  return new Promise<{ url: string; mails: SmtpMail[]; close: () => void }>((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({
        url: `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
        mails,
        close: () => server.close(),
      }),
    ),
  );
}

// ---- the app ----

let t: TestApp;
let owner: Account;
let child: Account;
let stranger: Account;
let gw: { id: number; ser_num: string; token: string };
let docking: Account;

const worker = () => notifierOf(t.ctx)!.worker;
const pushes = () => notifierOf(t.ctx)!.pushes;

async function addObject(token: string, body: Record<string, unknown>) {
  return t.post<NotifyObject>(NOTIFY_API.addObject, body, { token });
}

async function history(token: string, q: Record<string, unknown> = {}) {
  return (await t.get<{ list: NotificationRow[]; total: number }>(NOTIFY_API.notifications, q, { token }))
    .data;
}

/** Makes every waiting delivery due now (instead of waiting out its back-off). */
const dueNow = () => t.ctx.db.query(`UPDATE deliveries SET next_attempt_at = now() WHERE status = 'pending'`);

/** A device report, then the notifier done with it. */
async function report(d: { ser_num: string; token: string }, data: Record<string, unknown>) {
  await sendReport(t, d, data);
  await notifierOf(t.ctx)!.settle();
}

beforeAll(async () => {
  await startReceiver();
  t = await testApp({ allowPrivateWebhooks: true });
  // visitor + user + dealer + apier: may add docking interfaces.
  owner = await t.account('nt_owner', 7 | 64);
  child = await t.account('nt_child', 3, owner.id);
  stranger = await t.account('nt_stranger', 7 | 64);
  gw = await addDevice(t, 'gateway', 'NT-GW', owner.token, { desc: '西门公厕' });
  const d = await t.post<{ id: number; token: string }>(
    '/api/v1/user/add-docking-interface',
    { name: '市平台', url: `${receiverUrl}/hook` },
    { token: owner.token },
  );
  expect(d.code).toBe(200);
  docking = d.data;
  dockingToken = docking.token;
});
afterAll(async () => {
  await t.close();
  receiver.close();
});

describe('notify objects', () => {
  it('adds each type with its own validation', async () => {
    const ok = [
      { name: '子账号', type: 'user', target: String(child.id) },
      { name: '值班邮箱', type: 'email', target: 'duty@example.com' },
      { name: '市平台', type: 'docking', target: String(docking.id) },
      { name: '企业微信群', type: 'wecom', target: `${receiverUrl}/wecom` },
      { name: '钉钉群', type: 'dingtalk', target: `${receiverUrl}/dingtalk` },
    ];
    for (const body of ok) {
      const r = await addObject(owner.token, body);
      expect(r.code, r.message).toBe(200);
      expect(r.data).toMatchObject({ ...body, user_id: owner.id });
    }
    const list = await t.get<{ list: NotifyObject[]; total: number }>(
      NOTIFY_API.objects,
      {},
      { token: owner.token },
    );
    expect(list.data.total).toBe(5);
    expect(list.data.list.find((o) => o.type === 'user')!.target_label).toBe('nt_child');
    expect(list.data.list.find((o) => o.type === 'docking')!.target_label).toBe('市平台');
    const emails = await t.get<{ total: number }>(
      NOTIFY_API.objects,
      { type: 'email' },
      { token: owner.token },
    );
    expect(emails.data.total).toBe(1);

    const bad = [
      [{ name: 'x', type: 'email', target: 'not-an-email' }, CODE.badRequest, '不是有效的邮箱地址'],
      [{ name: 'x', type: 'wecom', target: 'ftp://x' }, CODE.badRequest, '机器人地址'],
      [{ name: 'x', type: 'fax', target: '1' }, CODE.badRequest, '类型'],
      [{ name: '', type: 'email', target: 'a@b.cn' }, CODE.badRequest, '名称'],
      // Not in the owner's subtree.
      [{ name: 'x', type: 'user', target: String(stranger.id) }, CODE.forbidden, '只能提醒'],
      [{ name: 'x', type: 'user', target: '999999' }, CODE.notFound, '用户不存在'],
    ] as const;
    for (const [body, code, msg] of bad) {
      const r = await addObject(owner.token, body);
      expect(r.code).toBe(code);
      expect(r.message).toContain(msg);
    }
    // Someone else's docking interface is "not found".
    expect(
      (await addObject(stranger.token, { name: 'x', type: 'docking', target: String(docking.id) })).code,
    ).toBe(CODE.notFound);
  });

  it('refuses robot URLs on private networks unless allowed', async () => {
    t.ctx.config.allowPrivateWebhooks = false;
    try {
      const r = await addObject(owner.token, {
        name: 'x',
        type: 'dingtalk',
        target: 'http://10.0.0.5/robot',
      });
      expect(r.code).toBe(CODE.badRequest);
      expect(r.message).toContain('内网');
    } finally {
      t.ctx.config.allowPrivateWebhooks = true;
    }
  });

  it("updates and deletes only the caller's own objects", async () => {
    const o = (await addObject(owner.token, { name: '临时', type: 'email', target: 'tmp@example.com' })).data;
    expect(
      (await t.post(NOTIFY_API.updateObject, { id: o.id, name: '偷改' }, { token: stranger.token })).code,
    ).toBe(CODE.forbidden);
    const changed = await t.post<NotifyObject>(
      NOTIFY_API.updateObject,
      { id: o.id, target: 'x@example.com' },
      { token: owner.token },
    );
    expect(changed.data.target).toBe('x@example.com');
    // Changing the type needs a target of the new type.
    expect(
      (await t.post(NOTIFY_API.updateObject, { id: o.id, type: 'user' }, { token: owner.token })).code,
    ).toBe(CODE.badRequest);
    expect(
      (await t.post(NOTIFY_API.updateObject, { id: o.id, is_delete: true }, { token: owner.token })).code,
    ).toBe(200);
    expect(
      (await t.post(NOTIFY_API.updateObject, { id: o.id, name: 'again' }, { token: owner.token })).code,
    ).toBe(CODE.notFound);
    // A stranger cannot list the owner's objects either.
    expect(
      (await t.get(NOTIFY_API.objects, { target_user_id: owner.id }, { token: stranger.token })).code,
    ).toBe(CODE.forbidden);
  });
});

describe('templates', () => {
  it('adds, previews with sample values and with a device the caller sees', async () => {
    const r = await t.post<{ id: number }>(
      NOTIFY_API.addTemplate,
      { name: '氨气超标', content: '{user_name}：{desc}（{ser_num}）氨气 {nh3}，{oops}' },
      { token: owner.token },
    );
    expect(r.code).toBe(200);
    const sample = await t.post<{ text: string; unknown: string[]; source: string }>(
      NOTIFY_API.previewTemplate,
      { content: '{desc} 氨气 {nh3} {oops}' },
      { token: owner.token },
    );
    expect(sample.data).toEqual({
      text: '人民公园东门公厕 氨气 1.62 {oops}',
      unknown: ['oops'],
      source: 'sample',
    });
    await report(gw, { nh3: 0.8 });
    const real = await t.post<{ text: string; source: string }>(
      NOTIFY_API.previewTemplate,
      { content: '{desc}（{ser_num}）氨气 {nh3}', device_id: gw.id },
      { token: owner.token },
    );
    expect(real.data).toMatchObject({ text: '西门公厕（NT-GW）氨气 0.8', source: 'device' });
    const other = await t.post(
      NOTIFY_API.previewTemplate,
      { content: '{desc}', device_id: gw.id },
      { token: stranger.token },
    );
    expect(other.code).toBe(CODE.notFound);
    expect(
      (await t.post(NOTIFY_API.updateTemplate, { id: r.data.id, content: '' }, { token: owner.token })).code,
    ).toBe(CODE.badRequest);
    expect(
      (await t.post(NOTIFY_API.updateTemplate, { id: r.data.id, name: '改' }, { token: stranger.token }))
        .code,
    ).toBe(CODE.forbidden);
  });
});

describe('dispatchRuleHit', () => {
  let hit: RuleHit;
  beforeAll(async () => {
    const objects = (await t.get<{ list: NotifyObject[] }>(NOTIFY_API.objects, {}, { token: owner.token }))
      .data.list;
    const template = (
      await t.get<{ list: { id: number }[] }>(NOTIFY_API.templates, {}, { token: owner.token })
    ).data.list[0]!;
    hit = {
      rule_id: 42,
      user_id: owner.id,
      template_id: template.id,
      object_ids: objects.map((o) => o.id),
      device_id: gw.id,
      ser_num: gw.ser_num,
      desc: '西门公厕',
      toilet_id: null,
      formula: 'nh3 gt 1.5 and not alarm',
      values: { nh3: 1.8, alarm: false },
      time: Date.now(),
    };
  });

  it('records one notification, the in-app messages at once and queues the rest without waiting', async () => {
    received.length = 0;
    const before = (await t.get<{ unread: number }>(MESSAGE_API.unread, undefined, { token: child.token }))
      .data.unread;
    failures.set('/hook', 1);
    await dispatchRuleHit(t.ctx, hit);
    expect(received).toHaveLength(0);
    const h = await history(owner.token);
    expect(h.total).toBe(1);
    const n = h.list[0]!;
    expect(n).toMatchObject({ rule_id: 42, device_id: gw.id, ser_num: 'NT-GW', title: '规则提醒：西门公厕' });
    expect(n.content).toBe('nt_owner：西门公厕（NT-GW）氨气 1.8，{oops}');
    const by = Object.fromEntries(n.deliveries.map((d) => [d.object_name || d.channel, d]));
    expect(n.deliveries.map((d) => [d.channel, d.status]).sort()).toEqual(
      [
        ['dingtalk', 'pending'],
        ['docking', 'pending'],
        ['email', 'pending'],
        ['inbox', 'sent'],
        ['inbox', 'sent'],
        ['wecom', 'pending'],
      ].sort(),
    );
    expect(by['子账号']!.target).toBe('nt_child');
    // The owner's and the child's inbox, each with its own {user_name}.
    const own = (
      await t.get<{ list: MessageRow[] }>(MESSAGE_API.list, { kind: 'rule' }, { token: owner.token })
    ).data.list;
    expect(own[0]).toMatchObject({ title: '规则提醒：西门公厕', read: false });
    const childMsg = (
      await t.get<{ list: MessageRow[] }>(MESSAGE_API.list, { kind: 'rule' }, { token: child.token })
    ).data.list;
    expect(childMsg[0]!.content).toBe('子账号：西门公厕（NT-GW）氨气 1.8，{oops}');
    const after = (await t.get<{ unread: number }>(MESSAGE_API.unread, undefined, { token: child.token }))
      .data.unread;
    expect(after).toBe(before + 1);
  });

  it('sends webhooks signed, retries a failure with back-off, and robots get their text JSON', async () => {
    await worker().runOnce();
    const hook = received.filter((r) => r.path === '/hook');
    expect(hook).toHaveLength(1);
    expect(hook[0]!.signatureOk).toBe(true);
    expect(hook[0]!.headers['x-timestamp']).toMatch(/^\d{13}$/);
    expect(hook[0]!.json).toMatchObject({ type: 'rule', rule_id: 42, formula: 'nh3 gt 1.5 and not alarm' });
    const robots = received.filter((r) => r.path === '/wecom' || r.path === '/dingtalk');
    expect(robots).toHaveLength(2);
    for (const r of robots) {
      expect(r.json).toEqual({
        msgtype: 'text',
        text: { content: expect.stringContaining('西门公厕（NT-GW）氨气 1.8') },
      });
    }
    const [row] = await t.ctx.db.query<{
      status: string;
      attempts: number;
      wait: number;
      last_error: string;
      response_code: number;
    }>(
      `SELECT status, attempts, extract(epoch FROM next_attempt_at - now())::float8 AS wait, last_error, response_code
         FROM deliveries WHERE channel = 'docking' AND kind = 'rule'`,
    );
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: '对方返回 HTTP 500',
      response_code: 500,
    });
    // First back-off: 30 s.
    expect(row!.wait).toBeGreaterThan(25);
    expect(row!.wait).toBeLessThanOrEqual(30);
    // Not due yet: nothing is sent.
    expect(await worker().runOnce()).toBe(0);
    await dueNow();
    expect(await worker().runOnce()).toBe(1);
    const again = received.filter((r) => r.path === '/hook');
    expect(again).toHaveLength(2);
    // The same bytes, signed the same way.
    expect(again[1]!.body).toBe(again[0]!.body);
    expect(again[1]!.signatureOk).toBe(true);
    const n = (await history(owner.token)).list[0]!;
    expect(n.deliveries.filter((d) => d.channel !== 'email').every((d) => d.status === 'sent')).toBe(true);
    const email = n.deliveries.find((d) => d.channel === 'email')!;
    // No SMTP configured: the mail waits in the outbox, and says so instead of 已发送.
    expect(email).toMatchObject({ status: 'queued', sent_at: null, last_error: NO_SMTP });
    expect((await history(owner.token, { status: 'pending' })).list.map((x) => x.id)).toContain(n.id);
    const [mail] = await t.ctx.db.query<{ subject: string; body: string }>(
      `SELECT subject, body FROM outbox WHERE to_addr = $1 ORDER BY id DESC LIMIT 1`,
      [email.target],
    );
    expect(mail).toMatchObject({
      subject: '规则提醒：西门公厕',
      body: '值班邮箱：西门公厕（NT-GW）氨气 1.8，{oops}',
    });
  });

  it('gives up after the last back-off and can be retried by hand (by its owner only)', async () => {
    failures.set('/hook', 100);
    const objects = (
      await t.get<{ list: NotifyObject[] }>(NOTIFY_API.objects, { type: 'docking' }, { token: owner.token })
    ).data.list;
    await dispatchRuleHit(t.ctx, { ...hit, object_ids: [objects[0]!.id] });
    for (let i = 0; i < 6; i++) {
      await dueNow();
      await worker().runOnce();
    }
    const h = await history(owner.token, { status: 'failed' });
    expect(h.total).toBe(1);
    const failed = h.list[0]!.deliveries.find((d) => d.channel === 'docking')!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 6, next_attempt_at: null });
    expect(await worker().runOnce()).toBe(0);

    expect((await t.post(NOTIFY_API.retryDelivery, { id: failed.id }, { token: stranger.token })).code).toBe(
      CODE.forbidden,
    );
    failures.set('/hook', 0);
    const retried = await t.post<DeliveryRow>(
      NOTIFY_API.retryDelivery,
      { id: failed.id },
      { token: owner.token },
    );
    expect(retried.data.status).toBe('pending');
    await worker().runOnce();
    const done = (await history(owner.token)).list[0]!.deliveries.find((d) => d.id === failed.id)!;
    expect(done.status).toBe('sent');
    expect((await t.post(NOTIFY_API.retryDelivery, { id: failed.id }, { token: owner.token })).code).toBe(
      CODE.conflict,
    );
    const inbox = h.list[0]!.deliveries.find((d) => d.channel === 'inbox')!;
    expect((await t.post(NOTIFY_API.retryDelivery, { id: inbox.id }, { token: owner.token })).code).toBe(
      CODE.badRequest,
    );
  });

  it('treats a robot errcode as a failure', async () => {
    const o = (
      await addObject(owner.token, { name: '坏机器人', type: 'wecom', target: `${receiverUrl}/robot-bad` })
    ).data;
    await dispatchRuleHit(t.ctx, { ...hit, object_ids: [o.id] });
    await worker().runOnce();
    const d = (await history(owner.token)).list[0]!.deliveries.find((x) => x.channel === 'wecom')!;
    expect(d).toMatchObject({ status: 'pending', attempts: 1 });
    expect(d.last_error).toContain('93000');
  });

  it('ignores objects and templates of other users', async () => {
    const theirs = (
      await addObject(stranger.token, { name: '别人的邮箱', type: 'email', target: 's@example.com' })
    ).data;
    await dispatchRuleHit(t.ctx, { ...hit, object_ids: [theirs.id], template_id: 999_999 });
    const n = (await history(owner.token)).list[0]!;
    expect(n.deliveries.map((d) => d.channel)).toEqual(['inbox']);
    expect(n.content).toContain('西门公厕（NT-GW）触发提醒：nh3 gt 1.5 and not alarm');
    expect((await history(stranger.token)).total).toBe(0);
  });
});

describe('e-mail through SMTP', () => {
  it('delivers through a real SMTP conversation and retries when the server refuses', async () => {
    const smtp = await smtpServer();
    const refusing = await smtpServer({ refuseRcpt: true });
    const original = t.ctx.mailer;
    try {
      const objects = (
        await t.get<{ list: NotifyObject[] }>(NOTIFY_API.objects, { type: 'email' }, { token: owner.token })
      ).data.list;
      t.ctx.mailer = new Mailer(t.ctx.db, t.ctx.log, smtp.url, 'console <noreply@example.com>');
      await dispatchRuleHit(t.ctx, { ...hit(), object_ids: [objects[0]!.id] });
      await worker().runOnce();
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]!.to[0]).toContain('duty@example.com');
      expect(smtp.mails[0]!.data).toContain('Subject:');
      let d = (await history(owner.token)).list[0]!.deliveries.find((x) => x.channel === 'email')!;
      expect(d).toMatchObject({ status: 'sent', response_code: 250 });

      t.ctx.mailer.close();
      t.ctx.mailer = new Mailer(t.ctx.db, t.ctx.log, refusing.url, 'console <noreply@example.com>');
      await dispatchRuleHit(t.ctx, { ...hit(), object_ids: [objects[0]!.id] });
      await worker().runOnce();
      d = (await history(owner.token)).list[0]!.deliveries.find((x) => x.channel === 'email')!;
      expect(d.status).toBe('pending');
      expect(d.attempts).toBe(1);
      // The SMTP server's own reason is kept for the screen.
      expect(d.last_error).toContain('550 no such user');
      // Refused every time: failed for good, with the reason; never 已发送.
      for (let i = 1; i < DELIVERY_MAX_ATTEMPTS; i++) {
        await dueNow();
        await worker().drain();
      }
      d = (await history(owner.token)).list[0]!.deliveries.find((x) => x.channel === 'email')!;
      expect(d).toMatchObject({ status: 'failed', attempts: DELIVERY_MAX_ATTEMPTS, sent_at: null });
      expect(d.last_error).toContain('550 no such user');
      expect(smtp.mails).toHaveLength(1);
    } finally {
      t.ctx.mailer.close();
      t.ctx.mailer = original;
      smtp.close();
      refusing.close();
    }
  });

  function hit(): RuleHit {
    return {
      rule_id: 7,
      user_id: owner.id,
      template_id: null,
      object_ids: [],
      device_id: gw.id,
      ser_num: gw.ser_num,
      desc: '西门公厕',
      toilet_id: null,
      formula: 'nh3 gt 1.5',
      values: { nh3: 2 },
      time: Date.now(),
    };
  }
});

describe('docking pushes', () => {
  it('pushes reports (batched) and alarms to interfaces that opted in and whose owner sees the device', async () => {
    // The stranger's interface opts in to everything but cannot see the owner's gateway.
    const theirs = await t.post<{ id: number }>(
      '/api/v1/user/add-docking-interface',
      { name: '别人的平台', url: `${receiverUrl}/theirs`, push_reports: 'true', push_alarms: 'true' },
      { token: stranger.token },
    );
    expect(theirs.code).toBe(200);
    const up = await t.post<{ push_reports: boolean; push_alarms: boolean; push_comments: boolean }>(
      '/api/v1/user/update-docking-interface',
      { id: docking.id, push_reports: 'true', push_alarms: 'true' },
      { token: owner.token },
    );
    expect(up.data).toMatchObject({ push_reports: true, push_alarms: true, push_comments: false });
    await pushes().flush();
    await worker().drain();
    received.length = 0;

    await report(gw, { nh3: 0.5, co2: 600 });
    await report(gw, { nh3: 2.2 });
    expect(await pushes().flush()).toBe(2);
    await worker().drain();
    const hook = received.filter((r) => r.path === '/hook');
    expect(received.filter((r) => r.path === '/theirs')).toHaveLength(0);
    const batch = hook.find((r) => r.json.type === 'reports')!;
    expect(batch.signatureOk).toBe(true);
    expect(batch.headers['x-event']).toBe('reports');
    const reports = batch.json.reports as { ser_num: string; data: Record<string, number> }[];
    // Both reports in one POST, oldest first.
    expect(reports.map((r) => r.data.nh3)).toEqual([0.5, 2.2]);
    expect(reports[0]!.ser_num).toBe('NT-GW');
    const alarm = hook.find((r) => r.json.type === 'alarm')!;
    expect(alarm.signatureOk).toBe(true);
    expect(alarm.json.alarm).toMatchObject({ type: 'air', status: 'open', ser_num: 'NT-GW' });

    // The same alarm event heard again (another server copy) is queued once.
    const [a] = await t.ctx.db.query<{ id: number }>(
      `SELECT id FROM alarms WHERE device_id = $1 AND status = 'open'`,
      [gw.id],
    );
    t.ctx.events.emit('alarms', [a!.id]);
    expect(await pushes().flush()).toBe(0);

    const log = await t.get<{ list: DeliveryRow[]; total: number }>(
      NOTIFY_API.dockingDeliveries,
      { docking_id: docking.id },
      { token: owner.token },
    );
    expect(
      log.data.list
        .slice(0, 2)
        .map((d) => [d.kind, d.status])
        .sort(),
    ).toEqual([
      ['alarm', 'sent'],
      ['reports', 'sent'],
    ]);
    expect(
      (await t.get(NOTIFY_API.dockingDeliveries, { docking_id: docking.id }, { token: stranger.token })).code,
    ).toBe(CODE.forbidden);
  });

  it('sends nothing once the interface opts out', async () => {
    await t.post(
      '/api/v1/user/update-docking-interface',
      { id: docking.id, push_reports: 'false', push_alarms: 'false' },
      { token: owner.token },
    );
    await pushes().refresh();
    await report(gw, { nh3: 0.3 });
    expect(await pushes().flush()).toBe(0);
  });
});
