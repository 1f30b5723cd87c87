import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CODE, PERMISSION, RULE_API, WS_TYPE } from '@se/core';
import { ruleEngineOf } from '../modules/rules/engine.ts';
import { addDevice, addToilet, sendReport, testApp, type Account, type TestApp } from '../test/harness.ts';

// The 'comments', 'messages' and 'rules' channels of /ws: who hears what.

let t: TestApp;
let base: string;
let owner: Account;
let other: Account;
let child: Account;
let ownerToilet: number;
let otherToilet: number;
let ownerTerminal: number;

interface Frame {
  type: number;
  id?: string;
  channel?: string;
  data: Record<string, unknown>;
}

function open(token: string) {
  const ws = new WebSocket(base);
  const inbox: Frame[] = [];
  ws.on('message', (m) => inbox.push(JSON.parse(m.toString()) as Frame));
  const next = async (pred: (m: Frame) => boolean, ms = 2000) => {
    const end = Date.now() + ms;
    for (;;) {
      const i = inbox.findIndex(pred);
      if (i >= 0) return inbox.splice(i, 1)[0]!;
      if (Date.now() > end) throw new Error('no such message');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  let n = 0;
  const request = async (action: string, data?: unknown) => {
    const id = String(++n);
    ws.send(JSON.stringify({ v: 1, type: WS_TYPE.request, id, action, data }));
    return next((m) => m.id === id);
  };
  const ready = (async () => {
    await new Promise((r) => ws.once('open', r));
    expect((await request('auth', { token })).type).toBe(WS_TYPE.reply);
  })();
  /** Takes the pushes of a channel that arrived so far (after waiting out one flush). */
  const pushes = async (channel: string) => {
    await new Promise((r) => setTimeout(r, 450));
    const mine = inbox.filter((m) => m.type === WS_TYPE.push && m.channel === channel);
    for (const m of mine) inbox.splice(inbox.indexOf(m), 1);
    return mine;
  };
  return { ws, request, next, ready, pushes, inbox };
}

async function insertComment(toiletId: number | null, equipmentId: number | null, content: string) {
  const [row] = await t.ctx.db.query<{ id: number }>(
    `INSERT INTO comments (toilet_id, equipment_id, star_level, content, smelly) VALUES ($1, $2, 4, $3, true)
     RETURNING id::int AS id`,
    [toiletId, equipmentId, content],
  );
  return row!.id;
}

beforeAll(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws`;
  const perms = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor;
  owner = await t.account('ch_owner', perms);
  other = await t.account('ch_other', perms);
  // A user below the owner sees nothing of the owner's: visibility flows down, not up.
  child = await t.account('ch_child', PERMISSION.user | PERMISSION.visitor, owner.id);
  ownerToilet = await addToilet(t, owner.token, { name: '甲厕所' });
  otherToilet = await addToilet(t, other.token, { name: '乙厕所' });
  ownerTerminal = (await addDevice(t, 'evaluate', 'CH-EVL-1', owner.token, { desc: '甲评价器' })).id;
});
afterAll(() => t.close());

describe('comments channel', () => {
  it('needs a signed-in socket', async () => {
    const ws = new WebSocket(base);
    await new Promise((r) => ws.once('open', r));
    const reply = new Promise<Frame>((r) => ws.once('message', (m) => r(JSON.parse(m.toString()))));
    ws.send(JSON.stringify({ v: 1, type: 1, id: 'x', action: 'subscribe', data: { channel: 'comments' } }));
    expect((await reply).data.code).toBe(CODE.unauthorized);
    ws.close();
  });

  it('pushes a new comment to whoever sees its toilet or terminal, and to nobody else', async () => {
    const a = open(owner.token);
    const b = open(other.token);
    const c = open(child.token);
    await Promise.all([a.ready, b.ready, c.ready]);
    for (const s of [a, b, c]) expect((await s.request('subscribe', { channel: 'comments' })).type).toBe(2);

    const onOwner = await insertComment(ownerToilet, null, '甲的评价');
    const onOther = await insertComment(otherToilet, null, '乙的评价');
    const fromTerminal = await insertComment(null, ownerTerminal, '评价器评价');
    // The event's toilet_id is only a hint: a forged one does not widen the audience.
    t.ctx.events.emit('comments', [
      { id: onOwner, toilet_id: ownerToilet, equipment_id: null },
      { id: onOther, toilet_id: ownerToilet, equipment_id: null },
      { id: fromTerminal, toilet_id: null, equipment_id: ownerTerminal },
    ]);

    const got = (await a.pushes('comments')).map((p) => p.data);
    expect(got.map((d) => d.id).sort()).toEqual([onOwner, fromTerminal].sort());
    expect(got.find((d) => d.id === onOwner)).toMatchObject({
      toilet_name: '甲厕所',
      content: '甲的评价',
      star_level: 4,
      smelly: true,
    });
    expect((await b.pushes('comments')).map((p) => p.data.id)).toEqual([onOther]);
    expect(await c.pushes('comments')).toEqual([]);
    for (const s of [a, b, c]) s.ws.close();
  });

  it("pushes an evaluation terminal's rating as it is stored", async () => {
    const terminal = await addDevice(t, 'evaluate', 'CH-EVL-2', owner.token, { desc: '甲评价器二' });
    const a = open(owner.token);
    const b = open(other.token);
    await Promise.all([a.ready, b.ready]);
    for (const s of [a, b]) await s.request('subscribe', { channel: 'comments' });
    await sendReport(t, terminal, { star_level: 2, poorsanitary: 1 });
    const got = (await a.pushes('comments')).map((p) => p.data);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ star_level: 2, poorsanitary: true });
    expect(await b.pushes('comments')).toEqual([]);
    for (const s of [a, b]) s.ws.close();
  });

  it('stops after unsubscribe', async () => {
    const a = open(owner.token);
    await a.ready;
    await a.request('subscribe', { channel: 'comments' });
    await a.request('unsubscribe', { channel: 'comments' });
    const id = await insertComment(ownerToilet, null, '退订后');
    t.ctx.events.emit('comments', [{ id, toilet_id: ownerToilet, equipment_id: null }]);
    expect(await a.pushes('comments')).toEqual([]);
    a.ws.close();
  });
});

describe('messages channel', () => {
  it("pushes a user's unread count to that user's sockets only, the newest count winning", async () => {
    const a1 = open(owner.token);
    const a2 = open(owner.token);
    const b = open(other.token);
    const quiet = open(owner.token);
    await Promise.all([a1.ready, a2.ready, b.ready, quiet.ready]);
    for (const s of [a1, a2, b]) await s.request('subscribe', { channel: 'messages' });

    t.ctx.events.emit('messages', [{ user_id: owner.id, unread: 2 }]);
    t.ctx.events.emit('messages', [{ user_id: owner.id, unread: 3 }]);
    for (const s of [a1, a2])
      expect((await s.pushes('messages')).map((p) => p.data)).toEqual([{ unread: 3 }]);
    expect(await b.pushes('messages')).toEqual([]);
    // Signed in as the owner but not subscribed: nothing.
    expect(await quiet.pushes('messages')).toEqual([]);

    t.ctx.events.emit('messages', [{ user_id: other.id, unread: 1 }]);
    expect((await b.pushes('messages')).map((p) => p.data)).toEqual([{ unread: 1 }]);
    expect(await a1.pushes('messages')).toEqual([]);
    for (const s of [a1, a2, b, quiet]) s.ws.close();
  });

  it('ignores malformed events instead of failing', async () => {
    const a = open(owner.token);
    await a.ready;
    await a.request('subscribe', { channel: 'messages' });
    t.ctx.events.emit('messages', [{ user_id: 'x', unread: 1 }, null]);
    t.ctx.events.emit('messages', { user_id: owner.id });
    t.ctx.events.emit('comments', [{ id: 'nope' }]);
    expect(await a.pushes('messages')).toEqual([]);
    expect((await a.request('ping')).data).toBe('pong');
    a.ws.close();
  });

  it('ends with the session', async () => {
    const token = await t.login('ch_owner', 'password-123');
    const a = open(token);
    await a.ready;
    await a.request('subscribe', { channel: 'messages' });
    await t.post('/api/v1/auth/logout', undefined, { token });
    // The next request finds the session gone and drops the subscriptions.
    expect((await a.request('subscribe', { channel: 'comments' })).data.code).toBe(CODE.revoked);
    t.ctx.events.emit('messages', [{ user_id: owner.id, unread: 9 }]);
    expect(await a.pushes('messages')).toEqual([]);
    a.ws.close();
  });
});

describe('rules channel', () => {
  it("pushes a fired rule to its owner's subscribed sockets only, so 最近触发 moves without a reload", async () => {
    const terminal = await addDevice(t, 'evaluate', 'CH-EVL-RULE', owner.token);
    const rule = await t.post<{ id: number }>(
      RULE_API.add,
      { name: '差评', formula: 'star_level lte 2', scope: 'devices', device_ids: terminal.id, cooldown_s: 0 },
      { token: owner.token },
    );
    expect(rule.code, rule.message).toBe(200);
    const a = open(owner.token);
    const b = open(other.token);
    const quiet = open(owner.token);
    await Promise.all([a.ready, b.ready, quiet.ready]);
    for (const s of [a, b]) expect((await s.request('subscribe', { channel: 'rules' })).type).toBe(2);

    const ts = Date.now();
    await sendReport(t, terminal, { star_level: 1 }, ts);
    await ruleEngineOf(t.ctx)!.idle();
    expect((await a.pushes('rules')).map((p) => p.data)).toEqual([
      { id: rule.data.id, fired_at: ts, hits: 1 },
    ]);
    expect(await b.pushes('rules')).toEqual([]);
    expect(await quiet.pushes('rules')).toEqual([]);
    // The list it updates says the same.
    const row = await t.get<{ hit_count: number; last_fired_at: string | null }>(
      RULE_API.get,
      { id: rule.data.id },
      { token: owner.token },
    );
    expect(row.data).toMatchObject({ hit_count: 1, last_fired_at: expect.any(String) });
    for (const s of [a, b, quiet]) s.ws.close();
  });
});
