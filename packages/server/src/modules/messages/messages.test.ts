import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, MESSAGE_API, type MessageRow } from '@se/core';
import {
  ADMIN_PASSWORD,
  addDevice,
  sendReport,
  testApp,
  type Account,
  type TestApp,
} from '../../test/harness.ts';
import { notifierOf } from '../notify/runtime.ts';

let t: TestApp;
let admin: string;
let mgr: Account;
let child: Account;
let stranger: Account;
let gw: { id: number; ser_num: string; token: string };
const events: { user_id: number; unread: number }[][] = [];

/** A device report, then the notifier done with it. */
async function report(d: { ser_num: string; token: string }, data: Record<string, unknown>) {
  await sendReport(t, d, data);
  await notifierOf(t.ctx)!.settle();
}

const inbox = async (token: string, q: Record<string, unknown> = {}) =>
  (await t.get<{ list: MessageRow[]; total: number }>(MESSAGE_API.list, q, { token })).data;
const unread = async (token: string) =>
  (await t.get<{ unread: number }>(MESSAGE_API.unread, undefined, { token })).data.unread;

/** message_count must always equal the unread, undeleted messages. */
async function consistent(userId: number) {
  const [r] = await t.ctx.db.query<{ stored: number; counted: number }>(
    `SELECT u.message_count AS stored,
            (SELECT count(*)::int FROM messages m WHERE m.user_id = u.id AND m.read_at IS NULL AND NOT m.is_delete) AS counted
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  expect(r!.stored).toBe(r!.counted);
  return r!.stored;
}

beforeAll(async () => {
  t = await testApp();
  t.ctx.events.on('messages', (e: { user_id: number; unread: number }[]) => events.push(e));
  admin = await t.login('admin', ADMIN_PASSWORD);
  mgr = await t.account('msg_mgr', 7);
  child = await t.account('msg_child', 3, mgr.id);
  stranger = await t.account('msg_stranger', 7);
  gw = await addDevice(t, 'gateway', 'MSG-GW', child.token, { desc: '东门公厕' });
});
afterAll(() => t.close());

describe('alarm → inbox', () => {
  it('gives each user who sees the device (bound user and ancestors) one message, and no one else', async () => {
    events.length = 0;
    await report(gw, { nh3: 2.4 });
    for (const u of [child, mgr]) {
      const m = await inbox(u.token);
      expect(m.total).toBe(1);
      expect(m.list[0]).toMatchObject({
        kind: 'alarm',
        read: false,
        device_id: gw.id,
        title: '空气质量告警：东门公厕',
      });
      expect(m.list[0]!.content).toContain('氨气 2.4 超过 1.5');
      expect(await unread(u.token)).toBe(1);
      await consistent(u.id);
    }
    expect((await inbox(admin)).total).toBe(1);
    expect((await inbox(stranger.token)).total).toBe(0);
    expect(await unread(stranger.token)).toBe(0);
    // The live side hears the new counts.
    const pushed = events.flat();
    expect(pushed).toEqual(
      expect.arrayContaining([
        { user_id: child.id, unread: 1 },
        { user_id: mgr.id, unread: 1 },
      ]),
    );
  });

  it('does not repeat the message while the alarm stays open or when it closes', async () => {
    await report(gw, { nh3: 3.1 });
    await report(gw, { nh3: 0.2 });
    expect((await inbox(child.token)).total).toBe(1);
    expect(await consistent(child.id)).toBe(1);
  });

  it('a new alarm (help button) is a new message', async () => {
    await report(gw, { alarm: 1 });
    const m = await inbox(child.token);
    expect(m.total).toBe(2);
    expect(m.list[0]!.title).toBe('求助告警：东门公厕');
    expect(await consistent(child.id)).toBe(2);
  });
});

describe('inbox API', () => {
  it('filters by read state, kind, keywords and time', async () => {
    expect((await inbox(child.token, { read: 'unread' })).total).toBe(2);
    expect((await inbox(child.token, { read: 'read' })).total).toBe(0);
    expect((await inbox(child.token, { kind: 'rule' })).total).toBe(0);
    expect((await inbox(child.token, { kind: 'alarm' })).total).toBe(2);
    expect((await inbox(child.token, { keywords: '求助' })).total).toBe(1);
    expect((await inbox(child.token, { start: '2000-01-01', end: '2000-01-02' })).total).toBe(0);
    expect((await inbox(child.token, { start: '2000-01-01' })).total).toBe(2);
    const bad = await t.get(MESSAGE_API.list, { read: 'maybe' }, { token: child.token });
    expect(bad.code).toBe(CODE.badRequest);
  });

  it('marks messages read and keeps message_count equal to the unread count', async () => {
    const [first] = (await inbox(child.token)).list;
    const r = await t.post<{ unread: number }>(
      MESSAGE_API.read,
      { ids: String(first!.id) },
      { token: child.token },
    );
    expect(r.code).toBe(200);
    expect(r.data.unread).toBe(1);
    expect(await consistent(child.id)).toBe(1);
    // Reading it again changes nothing.
    const again = await t.post<{ unread: number }>(
      MESSAGE_API.read,
      { ids: `${first!.id}` },
      { token: child.token },
    );
    expect(again.data.unread).toBe(1);
    const listed = await inbox(child.token, { read: 'read' });
    expect(listed.list.map((m) => m.id)).toEqual([first!.id]);
    expect(listed.list[0]!.read_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("never touches another user's messages", async () => {
    const mine = (await inbox(mgr.token)).list.map((m) => m.id);
    const before = await unread(mgr.token);
    for (const url of [MESSAGE_API.read, MESSAGE_API.remove]) {
      const r = await t.post(url, { ids: mine.join(',') }, { token: stranger.token });
      expect(r.code).toBe(CODE.notFound);
      // Mixing one's own id with someone else's changes nothing either.
      const own = (await inbox(child.token)).list[0]!.id;
      const mixed = await t.post(url, { ids: `${own},${mine[0]}` }, { token: child.token });
      expect(mixed.code).toBe(CODE.notFound);
    }
    expect(await unread(mgr.token)).toBe(before);
    expect((await inbox(mgr.token)).total).toBe(mine.length);
    expect(await consistent(child.id)).toBe(1);
  });

  it('rejects empty or malformed id lists', async () => {
    for (const ids of ['', 'abc', '-1', '[1,"x"]']) {
      const r = await t.post(MESSAGE_API.read, { ids }, { token: child.token });
      expect(r.code).toBe(CODE.badRequest);
    }
  });

  it('marks everything read at once', async () => {
    const r = await t.post<{ unread: number }>(MESSAGE_API.readAll, undefined, { token: mgr.token });
    expect(r.data.unread).toBe(0);
    expect(await consistent(mgr.id)).toBe(0);
    expect((await inbox(mgr.token, { read: 'unread' })).total).toBe(0);
    // The child's inbox is its own.
    expect(await consistent(child.id)).toBe(1);
  });

  it('deletes messages; an unread one leaves the unread count', async () => {
    const list = (await inbox(child.token)).list;
    const unreadOne = list.find((m) => !m.read)!;
    const r = await t.post<{ unread: number }>(
      MESSAGE_API.remove,
      { ids: `${unreadOne.id}` },
      { token: child.token },
    );
    expect(r.data.unread).toBe(0);
    expect(await consistent(child.id)).toBe(0);
    const after = await inbox(child.token);
    expect(after.total).toBe(list.length - 1);
    expect(after.list.some((m) => m.id === unreadOne.id)).toBe(false);
    // A deleted message is gone for read and delete too.
    expect((await t.post(MESSAGE_API.read, { ids: `${unreadOne.id}` }, { token: child.token })).code).toBe(
      CODE.notFound,
    );
  });

  it('pages with the requested page size', async () => {
    const p = await t.get<{ list: MessageRow[]; total: number; page: number; page_size: number }>(
      MESSAGE_API.list,
      { page: 2, page_size: 10 },
      { token: admin },
    );
    expect(p.data).toMatchObject({ page: 2, page_size: 10, list: [] });
    expect(p.data.total).toBeGreaterThan(0);
  });

  it('needs a session', async () => {
    expect((await t.get(MESSAGE_API.unread)).code).toBe(CODE.unauthorized);
  });
});
