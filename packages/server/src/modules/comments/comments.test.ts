import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  COMMENT_API,
  COMMENT_LIMITS,
  PERMISSION,
  TOILET_API,
  commentFilter,
  type CommentFilter,
  type CommentRow,
  type CommentStats,
  type ToiletCard,
} from '@se/core';
import type { Caller } from '../../context.ts';
import {
  addDevice,
  addToilet,
  adminApp,
  dealers,
  sendReport,
  type Account,
  type TestApp,
} from '../../test/harness.ts';
import { commentsExport } from './export.ts';

let t: TestApp;
let admin: string;
let dealer: Account;
let other: Account;
let customer: Account;
let toilet: number;
let otherToilet: number;
let terminal: { id: number; ser_num: string; token: string };

let visitorSeq = 0;
const visitor = () => `visitor-${process.pid}-${++visitorSeq}`;

interface Added {
  id: number;
  star_level: number;
  toilet: ToiletCard;
}

/** The id in a toilet's QR code (the console's toilet row carries it as `public_id`). */
const pub = async (id: number) =>
  (await t.ctx.db.query<{ public_id: string }>('SELECT public_id FROM toilets WHERE id = $1', [id]))[0]!
    .public_id;

/** Posts a review; a numeric `toilet_id` is taken as the internal id and sent as its public id. */
const review = async (body: Record<string, unknown>, ip?: string) => {
  const toilet_id = typeof body.toilet_id === 'number' ? await pub(body.toilet_id) : body.toilet_id;
  return t.post<Added>(COMMENT_API.add, { visitor_id: visitor(), star_level: 4, ...body, toilet_id }, { ip });
};

const totals = async (id: number) =>
  (
    await t.ctx.db.query<{ star_sum: number; star_count: number }>(
      'SELECT star_sum, star_count FROM toilets WHERE id = $1',
      [id],
    )
  )[0]!;

const list = (token: string, query: Record<string, unknown> = {}) =>
  t.get<{ list: CommentRow[]; total: number }>(COMMENT_API.list, { page_size: 100, ...query }, { token });

const terminalRating = (data: Record<string, unknown>) => sendReport(t, terminal, data);

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  ({ dealer, other, customer } = await dealers(t, 'rv'));
  const add = async (token: string, name: string) =>
    await addToilet(t, token, { name, cityname: '杭州市', address: '北山街 1 号' });
  toilet = await add(dealer.token, '西湖公厕');
  otherToilet = await add(other.token, '别人的公厕');
  terminal = await addDevice(t, 'evaluate', 'RV-EVL-1', dealer.token);
  // Setup: the terminal hangs in the dealer's toilet (placing devices is the toilet page's job).
  await t.ctx.db.query('UPDATE devices SET toilet_id = $1 WHERE id = $2', [toilet, terminal.id]);
});
afterAll(() => t.close());

describe('public review page', () => {
  it('shows a visitor only the toilet name, address and star average', async () => {
    const r = await t.get<ToiletCard>(COMMENT_API.toiletCard, { toilet_id: await pub(toilet) });
    expect(r.code, r.message).toBe(200);
    expect(r.data).toEqual({
      toilet_id: await pub(toilet),
      name: '西湖公厕',
      address: '杭州市北山街 1 号',
      star_average: 0,
      star_count: 0,
    });
  });

  it('says plainly when the toilet is missing, deleted or not named', async () => {
    const gone = (await t.post<{ id: number }>(TOILET_API.add, { name: '拆除' }, { token: dealer.token }))
      .data.id;
    await t.post(TOILET_API.update, { id: gone, is_delete: true }, { token: dealer.token });
    for (const id of [await pub(gone), 'AAAAAAAAAAAAAAAAAAAAAA']) {
      const card = await t.get(COMMENT_API.toiletCard, { toilet_id: id });
      expect(card).toMatchObject({
        code: CODE.notFound,
        message: '厕所不存在或已停用，请扫描厕所内的二维码',
      });
      const add = await review({ toilet_id: id });
      expect(add.code).toBe(CODE.notFound);
    }
    const missing = await t.get(COMMENT_API.toiletCard, {});
    expect(missing.code).toBe(CODE.badRequest);
  });

  it('gives every toilet its own unguessable public id, and never shows the internal one', async () => {
    const a = await pub(toilet);
    const b = await pub(otherToilet);
    // 16 random bytes, base64url: nothing to count up from.
    for (const id of [a, b]) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toBe(b);
    const card = await t.get<ToiletCard>(COMMENT_API.toiletCard, { toilet_id: a });
    expect(JSON.stringify(card.data)).not.toContain(`:${toilet},`);
    expect(card.data).not.toHaveProperty('id');
    const fresh = (await t.post<{ id: number }>(TOILET_API.add, { name: '新厕所' }, { token: dealer.token }))
      .data.id;
    const added = await review({ toilet_id: fresh });
    expect(added.data.toilet).toMatchObject({ toilet_id: await pub(fresh), name: '新厕所' });
    expect(added.data.toilet).not.toHaveProperty('id');
  });

  it('refuses internal ids on the public routes as if the toilet did not exist', async () => {
    // Sequential ids would let anyone list every tenant's toilet names and addresses.
    const before = await totals(toilet);
    for (const id of [toilet, String(toilet), `${toilet}.0`, ' 1', '0x1']) {
      const card = await t.get(COMMENT_API.toiletCard, { toilet_id: id });
      expect(card).toMatchObject({
        code: CODE.notFound,
        message: '厕所不存在或已停用，请扫描厕所内的二维码',
      });
      const add = await t.post(COMMENT_API.add, { toilet_id: id, visitor_id: visitor(), star_level: 5 });
      expect(add).toMatchObject({ code: CODE.notFound, message: '厕所不存在或已停用，请扫描厕所内的二维码' });
    }
    expect(await totals(toilet)).toEqual(before);
  });

  it('stores a review with its ticks, updates the toilet average and announces it', async () => {
    const seen: unknown[] = [];
    const on = (p: unknown) => seen.push(p);
    t.ctx.events.on('comments', on);
    const r = await review({
      toilet_id: toilet,
      star_level: 2,
      smelly: true,
      poorsanitary: 'on',
      content: '味道大',
    });
    t.ctx.events.off('comments', on);
    expect(r.code, r.message).toBe(200);
    expect(r.data.star_level).toBe(2);
    expect(r.data.toilet).toMatchObject({ star_average: 2, star_count: 1 });
    expect(seen).toEqual([[{ id: r.data.id, toilet_id: toilet, equipment_id: null }]]);
    const row = (await list(dealer.token)).data.list.find((c) => c.id === r.data.id)!;
    expect(row).toMatchObject({
      toilet_id: toilet,
      toilet_name: '西湖公厕',
      star_level: 2,
      smelly: true,
      poorsanitary: true,
      badattitude: false,
      content: '味道大',
      source: 'qr',
      is_delete: false,
    });
  });

  it('cleans the text: tags, control and invisible characters out, whitespace collapsed', async () => {
    const r = await review({
      toilet_id: toilet,
      content: '  <script>alert(1)</script>很<b>干净</b>\n\n\t服务\u0007好\u202Eevil\u200B 1<2  ',
    });
    expect(r.code, r.message).toBe(200);
    const row = (await list(dealer.token)).data.list.find((c) => c.id === r.data.id)!;
    expect(row.content).toBe('alert(1) 很 干净 服务好evil 1<2');
  });

  it('refuses stars outside 1–5, overlong text and a missing visitor id, with reasons', async () => {
    for (const star_level of [0, 6, 'x']) {
      const r = await review({ toilet_id: toilet, star_level });
      expect(r.code).toBe(CODE.badRequest);
    }
    expect((await review({ toilet_id: toilet, star_level: 0 })).message).toContain('请选择 1–5 星');
    const long = await review({ toilet_id: toilet, content: '好'.repeat(201) });
    expect(long).toMatchObject({ code: CODE.badRequest });
    expect(long.message).toContain('不能超过200个字');
    // Markup does not count: 200 characters of text inside tags is fine.
    const marked = await review({ toilet_id: toilet, content: `<p>${'好'.repeat(200)}</p>` });
    expect(marked.code, marked.message).toBe(200);
    const noVisitor = await t.post(COMMENT_API.add, { toilet_id: await pub(toilet), star_level: 5 });
    expect(noVisitor).toMatchObject({ code: CODE.badRequest });
    expect(noVisitor.message).toContain('访客标识');
    const badVisitor = await review({ toilet_id: toilet, visitor_id: '<x>' });
    expect(badVisitor.message).toContain('访客标识无效');
  });

  it(`lets one visitor rate a toilet ${COMMENT_LIMITS.perVisitorPerHour} times an hour`, async () => {
    const id = visitor();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await review({ toilet_id: toilet, visitor_id: id }));
    expect(results.map((r) => r.code)).toEqual([200, 200, 200, CODE.rateLimited]);
    expect(results[3]!.message).toBe('您在1小时内已对该厕所评价3次，感谢您的反馈，请稍后再评价');
    // Another toilet is another count.
    expect((await review({ toilet_id: otherToilet, visitor_id: id })).code).toBe(200);
    // An hour on, the visitor may rate again.
    await t.ctx.db.query(
      `UPDATE comments SET created_at = created_at - interval '61 minutes' WHERE visitor_id = $1`,
      [id],
    );
    expect((await review({ toilet_id: toilet, visitor_id: id })).code).toBe(200);
  });

  it(`lets one IP rate a toilet ${COMMENT_LIMITS.perIpPerHour} times an hour, whatever visitor id it sends`, async () => {
    const ip = '10.9.8.7';
    const fresh = await addToilet(t, dealer.token, { name: '限流厕所' });
    const codes = [];
    for (let i = 0; i < COMMENT_LIMITS.perIpPerHour + 1; i++)
      codes.push((await review({ toilet_id: fresh }, ip)).code);
    expect(codes.filter((c) => c === 200)).toHaveLength(COMMENT_LIMITS.perIpPerHour);
    const last = await review({ toilet_id: fresh }, ip);
    expect(last).toMatchObject({
      code: CODE.rateLimited,
      message: '当前网络对该厕所的评价次数已达上限，请1小时后再试',
    });
    expect((await review({ toilet_id: fresh }, '10.9.8.6')).code).toBe(200);
    // The address itself is not stored.
    const stored = await t.ctx.db.query<{ ip_hash: string }>(
      'SELECT DISTINCT ip_hash FROM comments WHERE toilet_id = $1',
      [fresh],
    );
    expect(stored).toHaveLength(2);
    for (const s of stored) expect(s.ip_hash).toMatch(/^[0-9a-f]{32}$/);
  });

  it('holds the visitor limit when one visitor submits many reviews at the same moment', async () => {
    const fresh = await addToilet(t, dealer.token, { name: '并发限流' });
    const id = visitor();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => review({ toilet_id: fresh, visitor_id: id })),
    );
    expect(results.filter((r) => r.code === 200)).toHaveLength(COMMENT_LIMITS.perVisitorPerHour);
    expect(results.filter((r) => r.code === CODE.rateLimited)).toHaveLength(
      10 - COMMENT_LIMITS.perVisitorPerHour,
    );
    expect(await totals(fresh)).toEqual({ star_sum: 12, star_count: 3 });
  });

  it('keeps the star totals exact under 50 concurrent reviews', async () => {
    const fresh = await addToilet(t, dealer.token, { name: '并发厕所' });
    const stars = Array.from({ length: 50 }, (_, i) => (i % 5) + 1);
    const results = await Promise.all(stars.map((s) => review({ toilet_id: fresh, star_level: s })));
    expect(results.map((r) => r.code)).toEqual(stars.map(() => 200));
    const sum = stars.reduce((a, b) => a + b, 0);
    expect(await totals(fresh)).toEqual({ star_sum: sum, star_count: 50 });
    const stored = await t.ctx.db.query<{ n: number; s: number }>(
      'SELECT count(*)::int AS n, sum(star_level)::int AS s FROM comments WHERE toilet_id = $1',
      [fresh],
    );
    expect(stored[0]).toEqual({ n: 50, s: sum });
    const card = await t.get<ToiletCard>(COMMENT_API.toiletCard, { toilet_id: await pub(fresh) });
    expect(card.data).toMatchObject({ star_average: 3, star_count: 50 });
  });
});

describe('review management', () => {
  let mine: number;
  let theirs: number;
  let fromTerminal: number;

  beforeAll(async () => {
    mine = (await review({ toilet_id: toilet, star_level: 1, badattitude: true, content: '态度很差 100%' }))
      .data.id;
    theirs = (await review({ toilet_id: otherToilet, star_level: 5, content: '别人的评价' })).data.id;
    await terminalRating({ star_level: 3, inefficiency: 1, content: '评价器上的评价' });
    const rows = await t.ctx.db.query<{ id: number }>('SELECT id FROM comments WHERE equipment_id = $1', [
      terminal.id,
    ]);
    fromTerminal = rows[0]!.id;
  });

  it('lists the reviews of toilets and terminals the caller can see, newest first', async () => {
    const r = await list(dealer.token);
    expect(r.code, r.message).toBe(200);
    const ids = r.data.list.map((c) => c.id);
    expect(ids).toContain(mine);
    expect(ids).toContain(fromTerminal);
    expect(ids).not.toContain(theirs);
    const times = r.data.list.map((c) => c.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const term = r.data.list.find((c) => c.id === fromTerminal)!;
    expect(term).toMatchObject({
      source: 'terminal',
      toilet_id: toilet,
      toilet_name: '西湖公厕',
      equipment_id: terminal.id,
      equipment_ser_num: 'RV-EVL-1',
      inefficiency: true,
    });
  });

  it('applies the ownership matrix to lists, filters and hide/restore', async () => {
    const ids = async (token: string, q: Record<string, unknown> = {}) =>
      (await list(token, q)).data.list.map((c) => c.id);
    expect(await ids(other.token)).toContain(theirs);
    expect(await ids(other.token)).not.toContain(mine);
    expect(await ids(other.token)).not.toContain(fromTerminal);
    // A customer below the dealer sees nothing until a toilet is bound to them.
    expect(await ids(customer.token)).toEqual([]);
    await t.post(TOILET_API.bind, { user_id: customer.id, add_ids: String(toilet) }, { token: dealer.token });
    const bound = await ids(customer.token);
    expect(bound).toContain(mine);
    expect(bound).toContain(fromTerminal);
    expect(bound).not.toContain(theirs);
    // develop sees all.
    const all = await ids(admin);
    for (const id of [mine, theirs, fromTerminal]) expect(all).toContain(id);

    // Every id in a request is checked: another's toilet, terminal or review is "not there".
    expect(await list(other.token, { toilet_id: toilet })).toMatchObject({
      code: CODE.notFound,
      message: '厕所不存在',
    });
    expect(await list(other.token, { equipment_id: terminal.id })).toMatchObject({
      code: CODE.notFound,
      message: '评价器不存在',
    });
    expect(await t.get(COMMENT_API.stats, { toilet_id: toilet }, { token: other.token })).toMatchObject({
      code: CODE.notFound,
    });
    const hide = await t.post(COMMENT_API.update, { id: mine, is_delete: true }, { token: other.token });
    expect(hide).toMatchObject({ code: CODE.notFound, message: '评价不存在' });
    expect((await list(dealer.token)).data.list.find((c) => c.id === mine)?.is_delete).toBe(false);
    // Signed-out callers get nothing.
    expect((await t.get(COMMENT_API.list, {})).code).toBe(CODE.unauthorized);
  });

  it('filters by toilet, stars, ticks, source, time and keywords', async () => {
    const ids = async (q: Record<string, unknown>) => (await list(admin, q)).data.list.map((c) => c.id);
    expect(await ids({ toilet_id: otherToilet })).toContain(theirs);
    expect(await ids({ toilet_id: otherToilet })).not.toContain(mine);
    // The terminal placed in the toilet counts as the toilet's.
    expect(await ids({ toilet_id: toilet })).toContain(fromTerminal);
    expect(await ids({ equipment_id: terminal.id })).toEqual([fromTerminal]);
    const ones = (await list(admin, { star_levels: '1' })).data.list;
    expect(ones.length).toBeGreaterThan(0);
    expect(ones.every((c) => c.star_level === 1)).toBe(true);
    const lowOrHigh = (await list(admin, { star_levels: '1,5' })).data.list;
    expect(new Set(lowOrHigh.map((c) => c.star_level))).toEqual(new Set([1, 5]));
    const flagged = (await list(admin, { flags: 'badattitude,inefficiency' })).data.list;
    expect(flagged.map((c) => c.id)).toEqual(expect.arrayContaining([mine, fromTerminal]));
    expect(flagged.every((c) => c.badattitude || c.inefficiency)).toBe(true);
    expect(await ids({ source: 'terminal' })).toEqual([fromTerminal]);
    expect(await ids({ keywords: '100%' })).toEqual([mine]);
    expect(await ids({ keywords: '_' })).toEqual([]);
    expect(await ids({ start: '2000-01-01', end: '2000-12-31' })).toEqual([]);
    expect(await ids({ start: '2000-01-01 00:00:00' })).toContain(mine);
    const byStars = (await list(admin, { sort: 'star_asc' })).data.list.map((c) => c.star_level);
    expect([...byStars].sort((a, b) => a - b)).toEqual(byStars);
    for (const bad of [{ star_levels: '9' }, { flags: 'rude' }, { sort: 'name' }, { start: '2020-13-01' }]) {
      const r = await list(admin, bad);
      expect(r.code, JSON.stringify(bad)).toBe(CODE.badRequest);
    }
  });

  it('pages the list with the total', async () => {
    const fresh = await addToilet(t, dealer.token, { name: '分页厕所' });
    for (let i = 0; i < 15; i++) await review({ toilet_id: fresh, star_level: (i % 5) + 1 });
    const all = await list(admin, { toilet_id: fresh });
    expect(all.data.total).toBe(15);
    const p1 = await list(admin, { toilet_id: fresh, page_size: 10, page: 1 });
    const p2 = await list(admin, { toilet_id: fresh, page_size: 10, page: 2 });
    expect(p1.data.total).toBe(all.data.total);
    expect(p1.data.list).toHaveLength(10);
    expect(p2.data.list.map((c) => c.id)).toEqual(all.data.list.slice(10).map((c) => c.id));
  });

  it('counts the filtered reviews per star and tick', async () => {
    const s = await t.get<CommentStats>(
      COMMENT_API.stats,
      { toilet_id: otherToilet },
      { token: other.token },
    );
    expect(s.code, s.message).toBe(200);
    const rows = (await list(other.token, { toilet_id: otherToilet })).data.list;
    expect(s.data.count).toBe(rows.length);
    expect(s.data.stars.reduce((a, b) => a + b, 0)).toBe(rows.length);
    expect(s.data.stars[4]).toBe(rows.filter((c) => c.star_level === 5).length);
    const avg = rows.reduce((a, c) => a + c.star_level, 0) / rows.length;
    expect(s.data.average).toBeCloseTo(avg, 2);
    expect(s.data.flags.badattitude).toBe(rows.filter((c) => c.badattitude).length);
  });

  it('hides a review from the list and the average, restores it, and audits both', async () => {
    const before = await totals(toilet);
    const hidden = await t.post<CommentRow>(
      COMMENT_API.update,
      { id: mine, is_delete: true },
      { token: dealer.token },
    );
    expect(hidden.code, hidden.message).toBe(200);
    expect(hidden.data.is_delete).toBe(true);
    expect(await totals(toilet)).toEqual({
      star_sum: before.star_sum - 1,
      star_count: before.star_count - 1,
    });
    // A second click changes nothing.
    await t.post(COMMENT_API.update, { id: mine, is_delete: 'true' }, { token: dealer.token });
    expect(await totals(toilet)).toEqual({
      star_sum: before.star_sum - 1,
      star_count: before.star_count - 1,
    });
    expect((await list(dealer.token)).data.list.map((c) => c.id)).not.toContain(mine);
    const withHidden = await list(dealer.token, { show_hidden: true });
    expect(withHidden.data.list.find((c) => c.id === mine)?.is_delete).toBe(true);

    const restored = await t.post<CommentRow>(
      COMMENT_API.update,
      { id: mine, is_delete: false },
      { token: dealer.token },
    );
    expect(restored.data.is_delete).toBe(false);
    expect(await totals(toilet)).toEqual(before);

    const log = await t.ctx.db.query<{ action: string; actor_id: number }>(
      `SELECT action, actor_id FROM audit_log WHERE entity = 'comment' AND entity_id = $1 ORDER BY id`,
      [mine],
    );
    expect(log).toEqual([
      { action: 'comment.hide', actor_id: dealer.id },
      { action: 'comment.restore', actor_id: dealer.id },
    ]);
  });

  it("takes a hidden terminal rating out of the terminal's and the toilet's averages", async () => {
    const dev = async () =>
      (
        await t.ctx.db.query<{ star_count: number; star_level: number }>(
          'SELECT star_count, star_level FROM devices WHERE id = $1',
          [terminal.id],
        )
      )[0]!;
    await terminalRating({ star_level: 5 });
    expect(await dev()).toEqual({ star_count: 2, star_level: 4 });
    const before = await totals(toilet);
    const r = await t.post(
      COMMENT_API.update,
      { id: fromTerminal, is_delete: true },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(await dev()).toEqual({ star_count: 1, star_level: 5 });
    expect(await totals(toilet)).toEqual({
      star_sum: before.star_sum - 3,
      star_count: before.star_count - 1,
    });
    await t.post(COMMENT_API.update, { id: fromTerminal, is_delete: false }, { token: dealer.token });
    expect(await dev()).toEqual({ star_count: 2, star_level: 4 });
    expect(await totals(toilet)).toEqual(before);
  });

  it('drops the reviews of a deleted toilet from the list', async () => {
    const gone = (await t.post<{ id: number }>(TOILET_API.add, { name: '将拆除' }, { token: other.token }))
      .data.id;
    const c = (await review({ toilet_id: gone })).data.id;
    expect((await list(other.token)).data.list.map((x) => x.id)).toContain(c);
    await t.post(TOILET_API.update, { id: gone, is_delete: true }, { token: other.token });
    expect((await list(other.token)).data.list.map((x) => x.id)).not.toContain(c);
  });
});

describe('comments export', () => {
  const callerOf = (u: { id: number }, permission: number): Caller => ({
    id: u.id,
    userName: '',
    permission,
    sessionId: 0,
  });
  const collect = async (caller: Caller, q: Partial<CommentFilter>) => {
    const parsed = commentFilter.parse(q);
    const rows: Record<string, unknown>[] = [];
    for await (const page of commentsExport.rows(t.ctx, caller, parsed)) rows.push(...page);
    return { rows, count: await commentsExport.count!(t.ctx, caller, parsed) };
  };

  it('exports what the caller may see for the filter, with level words and ticks', async () => {
    const mgr = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor;
    const { rows, count } = await collect(callerOf(other, mgr), {});
    expect(rows.length).toBe(count);
    expect(rows.length).toBe((await list(other.token)).data.total);
    expect(rows.every((r) => r.toilet_name === '别人的公厕')).toBe(true);
    const five = rows.find((r) => r.content === '别人的评价')!;
    expect(five).toMatchObject({ star_level: 5, level: '优', source: '扫码', badattitude: '' });
    const keys = commentsExport.columns(commentFilter.parse({}), t.ctx, callerOf(other, mgr));
    expect((keys as { key: string }[]).map((c) => c.key)).toEqual(expect.arrayContaining(Object.keys(five)));

    const flagged = await collect(callerOf(dealer, mgr), { toilet_id: toilet, flags: ['smelly'] });
    expect(flagged.rows.length).toBeGreaterThan(0);
    expect(flagged.rows.every((r) => r.smelly === '是')).toBe(true);
    await expect(
      commentsExport.prepare!(t.ctx, callerOf(other, mgr), commentFilter.parse({ toilet_id: toilet })),
    ).rejects.toMatchObject({ code: CODE.notFound });
  });

  it('reads deep exports page by page without skipping or repeating rows', async () => {
    const fresh = await addToilet(t, dealer.token, { name: '导出厕所' });
    // Setup: 4,500 reviews straight into the table, many sharing one timestamp.
    await t.ctx.db.query(
      `INSERT INTO comments (toilet_id, star_level, content, source, created_at)
       SELECT $1, 1 + g % 5, 'r' || g, 'qr', now() - (g / 7) * interval '1 second' FROM generate_series(1, 4500) g`,
      [fresh],
    );
    const { rows, count } = await collect(callerOf({ id: 1 }, PERMISSION.develop), { toilet_id: fresh });
    expect(count).toBe(4500);
    expect(new Set(rows.map((r) => r.id)).size).toBe(4500);
  });
});
