import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, PERMISSION, ROLES, SERVICE, type RoleName } from '@se/core';
import { ADMIN_PASSWORD, adminApp, testApp, type TestApp } from '../../test/harness.ts';
import { hashPassword } from '../auth/password.ts';
import { insertUser } from './repo.ts';

let t: TestApp;
let admin: string;
let hash: string;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  hash = await hashPassword('password-123', 12);
});
afterAll(() => t.close());

type UserPage = { list: { user_name: string; backend_manager: boolean }[]; total: number; page: number };

/** The user list (/users) as `token` sees it (default the developer). */
const users = async (query: Record<string, unknown>, token = admin) =>
  (await t.get<UserPage>('/api/v1/user/users', query, { token })).data;

/** The user names on that list, in its order. */
const userNames = async (query: Record<string, unknown>, token = admin) =>
  (await users(query, token)).list.map((u) => u.user_name);

describe('role assignment matrix (SPEC §6)', () => {
  // Written out by hand from the spec's assignment table: who may grant what.
  const MAY_GRANT: Record<RoleName, RoleName[]> = {
    visitor: [],
    user: ['visitor'],
    dealer: ['user'],
    dataView: [],
    media: [],
    attendance: [],
    apier: [],
    // An OEM: a 127 account a backend manager created (see the accounts below).
    oemer: ['visitor', 'user', 'dealer', 'dataView', 'apier'],
    ssVisitor: [],
    ssUser: ['ssVisitor'],
    ssManager: ['ssUser'],
    // A backend manager: a 127 account a developer created. Granting the value 127 makes an
    // OEM (the new account's creator is no developer), whichever of the two names it goes by.
    superSaled: [
      'visitor',
      'user',
      'dealer',
      'dataView',
      'media',
      'attendance',
      'apier',
      'oemer',
      'superSaled',
    ],
    ssSuperSaled: ['ssVisitor', 'ssUser', 'ssManager'],
    develop: ROLES.map((r) => r.name),
  };

  // A granted role brings the lower roles of its chain the caller may also grant.
  const CHAIN: Partial<Record<RoleName, RoleName[]>> = {
    user: ['visitor'],
    dealer: ['user', 'visitor'],
    ssUser: ['ssVisitor'],
    ssManager: ['ssUser', 'ssVisitor'],
  };
  const given = (caller: RoleName, role: RoleName) =>
    (CHAIN[role] ?? [])
      .filter((lower) => MAY_GRANT[caller].includes(lower))
      .reduce<number>((mask, lower) => mask | PERMISSION[lower], PERMISSION[role]);

  for (const caller of ROLES) {
    it(`${caller.name} (${caller.label}) grants exactly ${MAY_GRANT[caller.name].join(', ') || 'nothing'}`, async () => {
      // Every account is created by admin (develop), except the OEM: a backend manager's.
      const parent =
        caller.name === 'oemer' ? (await t.account('m_oemer_creator', PERMISSION.superSaled, 1)).id : 1;
      const me = await t.account(`m_${caller.name}`, caller.value, parent);
      const target = await insertUser(t.ctx.db, {
        user_name: `m_${caller.name}_child`,
        email: null,
        password_hash: hash,
        permissions: 0,
        parent_id: me.id,
      });
      for (const role of ROLES) {
        const r = await t.post(
          '/api/v1/user/update-user',
          { id: target, permissions: role.value },
          { token: me.token },
        );
        const allowed = MAY_GRANT[caller.name].includes(role.name);
        expect(r.code, `${caller.name} → ${role.name}`).toBe(allowed ? 200 : CODE.forbidden);
        if (!allowed) expect(r.message).toMatch(/^无权分配或取消角色「.+」$/);
        const [row] = await t.ctx.db.query<{ permissions: number }>(
          `SELECT permissions FROM users WHERE id = $1`,
          [target],
        );
        expect(row!.permissions).toBe(allowed ? given(caller.name, role.name) : 0);
        await t.ctx.db.query(`UPDATE users SET permissions = 0 WHERE id = $1`, [target]);
      }
    });
  }

  it('a dealer made through the API with the dealer bit alone gets 用户 and 游客 too, and sees its devices', async () => {
    const r = await t.post<{ id: number }>(
      '/api/v1/user/add-user',
      { user_name: 'api_dealer', password: 'password-123', permissions: PERMISSION.dealer },
      { token: admin },
    );
    expect(r.code).toBe(200);
    const [row] = await t.ctx.db.query<{ permissions: number }>(
      `SELECT permissions FROM users WHERE id = $1`,
      [r.data.id],
    );
    expect(row!.permissions).toBe(PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor);
    const token = await t.login('api_dealer', 'password-123');
    expect((await t.get('/api/v1/jwb/jwbs', {}, { token })).code).toBe(200);
  });

  it('a dealer cannot mint an OEM through add-user either, and the refusal names the role', async () => {
    const dealer = await t.account('dealer_x', PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor, 1);
    const r = await t.post(
      '/api/v1/user/add-user',
      { user_name: 'wannabe_oem', password: 'password-123', permissions: PERMISSION.oemer },
      { token: dealer.token },
    );
    expect(r).toMatchObject({ code: CODE.forbidden, message: '无权分配或取消角色「经销商」' });
    const ok = await t.post<{ id: number }>(
      '/api/v1/user/add-user',
      { user_name: 'customer_x', password: 'password-123', permissions: PERMISSION.user },
      { token: dealer.token },
    );
    expect(ok.code).toBe(200);
  });

  it('develop creates both backend managers; one of toilets creates OEMs; an OEM creates no OEM', async () => {
    const P = PERMISSION;
    const add = (token: string, user_name: string, permissions: number) =>
      t.post<{ id: number }>(
        '/api/v1/user/add-user',
        { user_name, password: 'password-123', permissions },
        { token },
      );
    const me = (token: string) =>
      t.get<{ permission: number; id: number; backend_manager: boolean }>(
        '/api/v1/auth/get-permission',
        undefined,
        { token },
      );
    // develop → backend manager (toilets) and backend manager (campus).
    expect((await add(admin, 'bm_toilet', P.superSaled)).code).toBe(200);
    expect((await add(admin, 'bm_campus', P.ssSuperSaled)).code).toBe(200);
    const bm = await t.login('bm_toilet', 'password-123');
    expect((await me(bm)).data).toMatchObject({ permission: 127, backend_manager: true });

    // The backend manager creates an OEM, a media and an attendance account.
    const oemId = (await add(bm, 'oem_1', P.oemer)).data.id;
    expect(oemId).toBeGreaterThan(0);
    expect((await add(bm, 'media_1', P.media)).code).toBe(200);
    expect((await add(bm, 'attendance_1', P.attendance)).code).toBe(200);
    const oem = await t.login('oem_1', 'password-123');
    expect((await me(oem)).data).toMatchObject({ permission: 127, backend_manager: false });

    // The OEM makes dealers, data centres and integrations, but no OEM, media or attendance.
    expect((await add(oem, 'dealer_1', P.dealer | P.user | P.visitor)).code).toBe(200);
    for (const [name, role] of [
      ['oem_2', P.oemer],
      ['media_2', P.media],
      ['attendance_2', P.attendance],
    ] as const) {
      const r = await add(oem, name, role);
      expect(r.code, name).toBe(CODE.forbidden);
      expect(r.message).toMatch(/^无权分配或取消角色「.+」$/);
    }
    // Nor by promoting an account it already has.
    const dealer = (
      await t.ctx.db.query<{ id: number }>(`SELECT id FROM users WHERE user_name = 'dealer_1'`)
    )[0]!.id;
    for (const role of [P.oemer, P.media | P.dealer, P.attendance | P.dealer]) {
      const r = await t.post('/api/v1/user/update-user', { id: dealer, permissions: role }, { token: oem });
      expect(r.code).toBe(CODE.forbidden);
    }
    const [row] = await t.ctx.db.query<{ permissions: number }>(
      'SELECT permissions FROM users WHERE id = $1',
      [dealer],
    );
    expect(row!.permissions).toBe(P.dealer | P.user | P.visitor);
    // The backend manager can promote the same account to an OEM.
    const promoted = await t.post<{ backend_manager: boolean }>(
      '/api/v1/user/update-user',
      { id: dealer, permissions: P.oemer },
      { token: bm },
    );
    expect(promoted.code, promoted.message).toBe(200);
    expect(promoted.data.backend_manager).toBe(false);

    // The user list says which one a 127 account is.
    const list = await users({ keywords: '', page: 1, page_size: 100 });
    const flag = (n: string) => list.list.find((u) => u.user_name === n)?.backend_manager;
    expect([flag('bm_toilet'), flag('oem_1'), flag('bm_campus')]).toEqual([true, false, false]);
  });

  it('nobody changes their own roles, not even develop', async () => {
    const r = await t.post(
      '/api/v1/user/update-user',
      { id: 1, permissions: PERMISSION.visitor },
      { token: admin },
    );
    expect(r).toMatchObject({ code: CODE.forbidden, message: '不能修改自己的角色' });
  });

  it('nobody but develop grants develop', async () => {
    const sup = await t.account('sup_dev', PERMISSION.superSaled | PERMISSION.ssSuperSaled, 1);
    const child = await t.account('sup_dev_child', PERMISSION.visitor, sup.id);
    const r = await t.post(
      '/api/v1/user/update-user',
      { id: child.id, permissions: PERMISSION.develop },
      { token: sup.token },
    );
    expect(r.code).toBe(CODE.forbidden);
  });
});

describe('hierarchy', () => {
  let a: { id: number; token: string };
  let a1: { id: number; token: string };
  let b: { id: number; token: string };
  let bDocking: number;

  beforeAll(async () => {
    const mgr = PERMISSION.oemer;
    a = await t.account('tree_a', mgr, 1);
    a1 = await t.account('tree_a1', PERMISSION.user | PERMISSION.visitor, a.id);
    b = await t.account('tree_b', mgr, 1);
    const d = await t.post<{ id: number }>(
      '/api/v1/user/add-docking-interface',
      { name: 'B 的接口', url: 'https://b.example.com/hook' },
      { token: b.token },
    );
    bDocking = d.data.id;
  });

  it('lists itself and its subtree only', async () => {
    const r = await users({ page_size: 100 }, a.token);
    expect(r.list.map((u) => u.user_name).sort()).toEqual(['tree_a', 'tree_a1']);
    expect(r.total).toBe(2);
  });

  it('develop lists everyone', async () => {
    expect((await userNames({ keywords: 'tree_' })).sort()).toEqual(['tree_a', 'tree_a1', 'tree_b']);
  });

  it('refuses every id-taking call on another subtree', async () => {
    const calls: [string, 'GET' | 'POST', Record<string, unknown>][] = [
      ['/api/v1/user/get-user', 'GET', { user_id: b.id }],
      ['/api/v1/user/update-user', 'POST', { id: b.id, phone_num: '1' }],
      ['/api/v1/user/get-info', 'GET', { user_id: b.id }],
      ['/api/v1/user/update-info', 'POST', { user_id: b.id, company_name: 'x' }],
      ['/api/v1/user/users', 'GET', { user_id: b.id }],
      ['/api/v1/user/docking-interfaces', 'GET', { target_user_id: b.id }],
      [
        '/api/v1/user/add-docking-interface',
        'POST',
        { name: 'x', url: 'https://x.example', target_user_id: b.id },
      ],
      ['/api/v1/user/audit-logs', 'GET', { target_user_id: b.id }],
    ];
    for (const [url, method, body] of calls) {
      const r =
        method === 'GET'
          ? await t.get(url, body, { token: a.token })
          : await t.post(url, body, { token: a.token });
      expect(r.code, url).toBe(CODE.forbidden);
    }
    // Objects owned by another subtree are simply not there for the caller.
    for (const [url, method, body] of [
      ['/api/v1/user/get-docking-interface', 'GET', { id: bDocking }],
      ['/api/v1/user/update-docking-interface', 'POST', { id: bDocking, name: 'stolen' }],
      ['/api/v1/user/test-docking-interface', 'POST', { id: bDocking }],
    ] as const) {
      const r =
        method === 'GET'
          ? await t.get(url, body, { token: a.token })
          : await t.post(url, body, { token: a.token });
      expect(r.code, url).not.toBe(200);
    }
    const moved = await t.post(
      '/api/v1/user/update-docking-interface',
      { id: (await addDocking(a.token)).id, user_id: b.id },
      { token: a.token },
    );
    expect(moved.code).toBe(CODE.forbidden);
  });

  it('a child never sees or edits its parent', async () => {
    expect((await t.get('/api/v1/user/get-user', { user_id: a.id }, { token: a1.token })).code).toBe(
      CODE.forbidden,
    );
    expect(
      (await t.post('/api/v1/user/update-user', { id: a.id, email: 'x@y.cn' }, { token: a1.token })).code,
    ).toBe(CODE.forbidden);
  });

  it('a manager edits its descendants', async () => {
    const r = await t.post<{ email: string; pending_email: string }>(
      '/api/v1/user/update-user',
      { id: a1.id, email: 'A1@Example.com' },
      { token: a.token },
    );
    expect(r.code).toBe(200);
    // A new address waits for its owner's confirmation (accounts.test.ts).
    expect(r.data).toMatchObject({ email: '', pending_email: 'a1@example.com' });
  });

  async function addDocking(token: string) {
    const r = await t.post<{ id: number }>(
      '/api/v1/user/add-docking-interface',
      { name: '我的接口', url: 'https://a.example/h' },
      { token },
    );
    return r.data;
  }
});

describe('users list', () => {
  beforeAll(async () => {
    for (let i = 0; i < 25; i++) {
      await insertUser(t.ctx.db, {
        user_name: `list_${String(i).padStart(2, '0')}`,
        email: `list${i}@example.com`,
        phone_num: `1390000${String(i).padStart(4, '0')}`,
        password_hash: hash,
        permissions: i % 2 ? PERMISSION.visitor | PERMISSION.user : PERMISSION.visitor,
        parent_id: 1,
      });
    }
  });

  it('pages newest first with the total', async () => {
    const p1 = await users({ keywords: 'list_', page_size: 10 });
    expect(p1.total).toBe(25);
    expect(p1.list).toHaveLength(10);
    expect(p1.list[0]!.user_name).toBe('list_24');
    expect((await users({ keywords: 'list_', page: 3 })).list).toHaveLength(5);
  });

  it('searches by email, phone or id, and restricts to keys', async () => {
    expect(await userNames({ keywords: 'list7@' })).toEqual(['list_07']);
    expect(await userNames({ keywords: '13900000012' })).toEqual(['list_12']);
    expect((await users({ keywords: 'list7@', keys: 'user_name' })).total).toBe(0);
    const bad = await t.get('/api/v1/user/users', { keys: 'password_hash' }, { token: admin });
    expect(bad.code).toBe(CODE.badRequest);
  });

  it('filters by permission bits and can skip the count', async () => {
    expect((await users({ keywords: 'list_', permission: PERMISSION.user, page_size: 50 })).total).toBe(12);
    expect((await users({ need_match_count: 'false' })).total).toBe(-1);
  });

  it('matches wildcards literally', async () => {
    expect((await users({ keywords: '%' })).total).toBe(0);
  });

  it('is for managers only', async () => {
    const v = await t.account('just_visitor', PERMISSION.visitor, 1);
    expect((await t.get('/api/v1/user/users', undefined, { token: v.token })).code).toBe(CODE.forbidden);
  });
});

describe('update-user', () => {
  it('lets managers toggle the weekly-report services, not the user itself', async () => {
    const mgr = await t.account('svc_mgr', PERMISSION.oemer, 1);
    const child = await t.account('svc_child', PERMISSION.user | PERMISSION.visitor, mgr.id);
    const both = 1 | SERVICE.jwbWeeklyReport | SERVICE.toiletWeeklyReport;
    const r = await t.post<{ services: number }>(
      '/api/v1/user/update-user',
      { id: child.id, services: both },
      { token: mgr.token },
    );
    expect(r.data.services).toBe(both);
    const selfEdit = await t.post(
      '/api/v1/user/update-user',
      { id: child.id, services: 1 },
      { token: child.token },
    );
    expect(selfEdit.code).toBe(CODE.forbidden);
    const other = await t.post(
      '/api/v1/user/update-user',
      { id: child.id, services: both | 8 },
      { token: mgr.token },
    );
    expect(other.code).toBe(CODE.badRequest);
  });

  it('keeps message_count read-only', async () => {
    const u = await t.account('msg_user', PERMISSION.visitor, 1);
    await t.post('/api/v1/user/update-user', { id: u.id, message_count: 99 }, { token: admin });
    const r = await t.get<{ message_count: number }>(
      '/api/v1/user/get-user',
      { user_id: u.id },
      { token: admin },
    );
    expect(r.data.message_count).toBe(0);
  });

  it('answers 409 for a taken user name', async () => {
    const u = await t.account('name_taken', PERMISSION.visitor, 1);
    const r = await t.post('/api/v1/user/update-user', { id: u.id, user_name: 'ADMIN' }, { token: admin });
    expect(r).toMatchObject({ code: CODE.conflict, message: '用户名已被使用' });
  });

  it('rejects bad input with a Chinese message', async () => {
    for (const body of [
      {},
      { id: 'x' },
      { id: 1, email: 'nope' },
      { id: 1, permissions: -5 },
      { id: 1, phone_num: 'abc' },
    ]) {
      const r = await t.post('/api/v1/user/update-user', body, { token: admin });
      expect(r.code, JSON.stringify(body)).toBe(CODE.badRequest);
      expect(r.message).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});

describe('soft delete', () => {
  it('revokes sessions, hides the user, blocks sign-in and keeps history', async () => {
    const mgr = await t.account('del_mgr', PERMISSION.oemer, 1);
    const victim = await t.account('del_victim', PERMISSION.visitor | PERMISSION.user, mgr.id);
    expect(
      (await t.post('/api/v1/user/update-user', { id: victim.id, is_delete: true }, { token: mgr.token }))
        .code,
    ).toBe(200);
    expect((await t.get('/api/v1/auth/get-permission', undefined, { token: victim.token })).code).toBe(
      CODE.revoked,
    );
    const login = await t.post('/api/v1/auth/login', { filter: 'del_victim', password: 'password-123' });
    expect(login.code).toBe(CODE.badRequest);
    expect(await userNames({ keywords: 'del_' }, mgr.token)).toEqual(['del_mgr']);
    const log = await t.get<{ list: { action: string }[] }>(
      '/api/v1/user/audit-logs',
      { target_user_id: victim.id },
      { token: mgr.token },
    );
    expect(log.data.list.map((e) => e.action)).toEqual(['user.delete']);
  });

  it('no one deletes itself', async () => {
    const u = await t.account('self_del', PERMISSION.oemer, 1);
    const r = await t.post('/api/v1/user/update-user', { id: u.id, is_delete: true }, { token: u.token });
    expect(r).toMatchObject({ code: CODE.forbidden, message: '不能删除自己的账号' });
  });
});

describe('audit log', () => {
  it('records who changed what, before and after, filterable by user and time', async () => {
    const u = await t.account('audited', PERMISSION.visitor, 1);
    await t.post('/api/v1/user/update-info', { user_id: u.id, company_name: '新公司' }, { token: admin });
    await t.post(
      '/api/v1/user/update-user',
      { id: u.id, permissions: PERMISSION.visitor | PERMISSION.user },
      { token: admin },
    );
    const r = await t.get<{
      list: { action: string; actor_name: string; before: unknown; after: unknown }[];
    }>('/api/v1/user/audit-logs', { target_user_id: u.id }, { token: admin });
    expect(r.data.list.map((e) => e.action)).toEqual(['user.update', 'info.update']);
    expect(r.data.list[0]).toMatchObject({
      actor_name: 'admin',
      before: { permissions: 1 },
      after: { permissions: 3 },
    });
    expect(r.data.list[1]).toMatchObject({ before: { company_name: '' }, after: { company_name: '新公司' } });
    const future = await t.get<{ total: number }>(
      '/api/v1/user/audit-logs',
      { target_user_id: u.id, start: '2999-01-01' },
      { token: admin },
    );
    expect(future.data.total).toBe(0);
    const bad = await t.get('/api/v1/user/audit-logs', { start: '2024-13-40' }, { token: admin });
    expect(bad.code).toBe(CODE.badRequest);
  });
});

describe('docking interfaces', () => {
  it('accepts only http and https URLs', async () => {
    for (const url of ['ftp://files.example.com', 'javascript:alert(1)', 'example.com/hook', 'http://', '']) {
      const r = await t.post('/api/v1/user/add-docking-interface', { name: 'x', url }, { token: admin });
      expect(r.code, url).toBe(CODE.badRequest);
    }
  });

  it('adds, lists, edits and soft-deletes', async () => {
    const added = await t.post<{ id: number; token: string }>(
      '/api/v1/user/add-docking-interface',
      { name: '市环卫平台', url: 'https://hw.example.gov.cn/api/receive' },
      { token: admin },
    );
    expect(added.code).toBe(200);
    expect(added.data.token.length).toBeGreaterThan(20);
    const list = await t.get<{ list: { name: string }[] }>(
      '/api/v1/user/docking-interfaces',
      { keywords: '环卫' },
      { token: admin },
    );
    expect(list.data.list.map((d) => d.name)).toEqual(['市环卫平台']);
    const edited = await t.post<{ name: string }>(
      '/api/v1/user/update-docking-interface',
      { id: added.data.id, name: '市环卫平台2' },
      { token: admin },
    );
    expect(edited.data.name).toBe('市环卫平台2');
    await t.post(
      '/api/v1/user/update-docking-interface',
      { id: added.data.id, is_delete: true },
      { token: admin },
    );
    const after = await t.get('/api/v1/user/get-docking-interface', { id: added.data.id }, { token: admin });
    expect(after.code).toBe(CODE.notFound);
  });

  it('refuses to send the test to loopback or private addresses', async () => {
    const d = await t.post<{ id: number }>(
      '/api/v1/user/add-docking-interface',
      { name: 'lo', url: 'http://127.0.0.1:9/x' },
      { token: admin },
    );
    const r = await t.post<{ ok: boolean; error: string }>(
      '/api/v1/user/test-docking-interface',
      { id: d.data.id },
      { token: admin },
    );
    expect(r.data).toMatchObject({ ok: false, error: '不允许访问内网或本机地址' });
  });

  it('sends a sample payload with the token and reports status and latency', async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    let status = 200;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(status).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const open = await testApp({ allowPrivateWebhooks: true });
    try {
      const tok = await open.login('admin', ADMIN_PASSWORD);
      const d = await open.post<{ id: number; token: string }>(
        '/api/v1/user/add-docking-interface',
        { name: 'local', url: `http://127.0.0.1:${port}/hook`, token: 'secret-token-1' },
        { token: tok },
      );
      const r = await open.post<{ ok: boolean; status: number; latency_ms: number }>(
        '/api/v1/user/test-docking-interface',
        { id: d.data.id },
        { token: tok },
      );
      expect(r.data).toMatchObject({ ok: true, status: 200 });
      expect(r.data.latency_ms).toBeGreaterThanOrEqual(0);
      expect(received[0]!.headers['x-token']).toBe('secret-token-1');
      expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'test' });
      status = 500;
      const failed = await open.post<{ ok: boolean; status: number; error: string }>(
        '/api/v1/user/test-docking-interface',
        { id: d.data.id },
        { token: tok },
      );
      expect(failed.data).toMatchObject({ ok: false, status: 500, error: '对方返回 HTTP 500' });
    } finally {
      await open.close();
      server.close();
    }
  });
});

describe('organisation membership of created accounts (issue 15)', () => {
  type Row = { org_id: number | null; org_name: string; permissions: number };
  const add = (token: string, body: Record<string, unknown>) =>
    t.post<{ id: number }>('/api/v1/user/add-user', { password: 'password-123', ...body }, { token });
  const row = async (id: number, token = admin) =>
    (await t.get<Row>('/api/v1/user/get-user', { user_id: id }, { token })).data;

  let superA: { id: number; token: string };
  let superB: { id: number; token: string };
  let managerA: string;
  let orgA: number;
  let orgB: number;

  beforeAll(async () => {
    superA = await t.account('org_super_a', PERMISSION.ssSuperSaled, 1);
    superB = await t.account('org_super_b', PERMISSION.ssSuperSaled, 1);
    // Each back-office manager creates a campus manager and its organisation, as the screens do.
    const orgFor = async (s: { token: string }, name: string) => {
      const m = await add(s.token, { user_name: name, permissions: PERMISSION.ssManager });
      expect(m.code).toBe(200);
      const o = await t.post<{ id: number }>(
        '/api/v1/org/add-org',
        { name: `${name} 大学`, user_id: m.data.id },
        { token: s.token },
      );
      expect(o.code).toBe(200);
      return o.data.id;
    };
    orgA = await orgFor(superA, 'org_manager_a');
    orgB = await orgFor(superB, 'org_manager_b');
    managerA = await t.login('org_manager_a', 'password-123');
  });

  it('a campus manager adds a campus user into its organisation, who adds a visitor into it; both work there', async () => {
    const u = await add(managerA, { user_name: 'org_user_a', permissions: PERMISSION.ssUser });
    expect(u.code).toBe(200);
    expect(await row(u.data.id, managerA)).toMatchObject({ org_id: orgA, org_name: 'org_manager_a 大学' });
    const userToken = await t.login('org_user_a', 'password-123');
    const v = await add(userToken, { user_name: 'org_visitor_a', permissions: PERMISSION.ssVisitor });
    expect(v.code).toBe(200);
    expect(await row(v.data.id)).toMatchObject({ org_id: orgA, permissions: PERMISSION.ssVisitor });
    // Membership is what the campus screens act on: both read their organisation's page.
    for (const name of ['org_user_a', 'org_visitor_a']) {
      const token = await t.login(name, 'password-123');
      const org = await t.get<{ id: number }>('/api/v1/org/get-org', {}, { token });
      expect(org.code).toBe(200);
      expect(org.data.id).toBe(orgA);
    }
    // The user list shows the organisation.
    const list = await t.get<{ list: (Row & { user_name: string })[] }>(
      '/api/v1/user/users',
      { keywords: 'org_user_a' },
      { token: managerA },
    );
    expect(list.data.list.find((r) => r.user_name === 'org_user_a')?.org_name).toBe('org_manager_a 大学');
  });

  it('a campus manager cannot put an account into another organisation, nor grant 园区管理员', async () => {
    const other = await add(managerA, {
      user_name: 'org_stray',
      permissions: PERMISSION.ssUser,
      org_id: orgB,
    });
    expect(other).toMatchObject({ code: 404, message: '组织不存在' });
    const peer = await add(managerA, { user_name: 'org_peer', permissions: PERMISSION.ssManager });
    expect(peer.code).toBe(403);
    expect(peer.message).toContain('园区管理员');
  });

  it('a back-office manager creates a second manager for its organisation, never for another one', async () => {
    const m = await add(superA.token, {
      user_name: 'org_manager_a2',
      permissions: PERMISSION.ssManager,
      org_id: orgA,
    });
    expect(m.code).toBe(200);
    expect(await row(m.data.id)).toMatchObject({ org_id: orgA });
    const token = await t.login('org_manager_a2', 'password-123');
    expect((await t.get<{ id: number }>('/api/v1/org/get-org', {}, { token })).data.id).toBe(orgA);
    const foreign = await add(superA.token, {
      user_name: 'org_foreign',
      permissions: PERMISSION.ssManager,
      org_id: orgB,
    });
    expect(foreign).toMatchObject({ code: 404, message: '组织不存在' });
    const missing = await add(superB.token, {
      user_name: 'org_missing',
      permissions: PERMISSION.ssManager,
      org_id: 999999,
    });
    expect(missing).toMatchObject({ code: 404, message: '组织不存在' });
    // Without org_id its new manager works in no organisation yet (add-org gives it one).
    const loose = await add(superB.token, { user_name: 'org_loose', permissions: PERMISSION.ssManager });
    expect(await row(loose.data.id)).toMatchObject({ org_id: null, org_name: '' });
  });

  it('an account outside every organisation creates accounts outside them too; develop names any', async () => {
    const dealer = await t.account('org_dealer', PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor, 1);
    const c = await add(dealer.token, { user_name: 'org_customer', permissions: PERMISSION.user });
    expect(await row(c.data.id)).toMatchObject({ org_id: null });
    const d = await add(admin, { user_name: 'org_by_develop', permissions: PERMISSION.ssUser, org_id: orgB });
    expect(await row(d.data.id)).toMatchObject({ org_id: orgB, org_name: 'org_manager_b 大学' });
    // develop working inside an organisation (say, after opening attendance) does not put
    // the accounts it creates into it.
    await t.ctx.db.query(`UPDATE users SET org_id = $1 WHERE user_name = 'admin'`, [orgA]);
    const e = await add(admin, { user_name: 'org_by_develop_2', permissions: PERMISSION.ssManager });
    expect(await row(e.data.id)).toMatchObject({ org_id: null });
    await t.ctx.db.query(`UPDATE users SET org_id = NULL WHERE user_name = 'admin'`);
  });

  describe('moving an account to another organisation', () => {
    const move = (token: string, id: number, org_id: number) =>
      t.post<Row>('/api/v1/user/update-user', { id, org_id }, { token });
    const idOf = async (name: string) =>
      (await t.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE user_name = $1', [name]))[0]!.id;
    let orgA2: number;

    beforeAll(async () => {
      // A second organisation of superA's, managed by a campus manager it created.
      const m = await add(superA.token, { user_name: 'org_move_manager', permissions: PERMISSION.ssManager });
      expect(m.code, m.message).toBe(200);
      const o = await t.post<{ id: number }>(
        '/api/v1/org/add-org',
        { name: '第二校区', user_id: m.data.id },
        { token: superA.token },
      );
      expect(o.code, o.message).toBe(200);
      orgA2 = o.data.id;
    });

    it('moves the account and the accounts below it in the same organisation, audited, unlinking its employee record', async () => {
      const user = await idOf('org_user_a');
      const visitor = await idOf('org_visitor_a');
      // org_user_a's employee record in A (attendance) names its account.
      const [dep] = await t.ctx.db.query<{ id: number }>(
        `INSERT INTO att_departments (org_id, name) VALUES ($1, '保洁部') RETURNING id`,
        [orgA],
      );
      await t.ctx.db.query(
        `INSERT INTO att_employees (org_id, department_id, number, name, user_id) VALUES ($1, $2, 'M01', '甲', $3)`,
        [orgA, dep!.id, user],
      );

      const r = await move(superA.token, user, orgA2);
      expect(r.code, r.message).toBe(200);
      expect(r.data).toMatchObject({ org_id: orgA2, org_name: '第二校区' });
      expect(await row(visitor)).toMatchObject({ org_id: orgA2 });
      // The campus screens now act on the new organisation.
      const token = await t.login('org_visitor_a', 'password-123');
      expect((await t.get<{ id: number }>('/api/v1/org/get-org', {}, { token })).data.id).toBe(orgA2);
      // The employee record stays with A (its history), no longer naming the account.
      const emp = await t.ctx.db.query<{ user_id: number | null }>(
        `SELECT user_id FROM att_employees WHERE org_id = $1 AND number = 'M01'`,
        [orgA],
      );
      expect(emp[0]!.user_id).toBeNull();
      const audit = await t.ctx.db.query<{ entity_id: number; before: unknown; after: unknown }>(
        `SELECT entity_id, before, after FROM audit_log
          WHERE action = 'user.update' AND entity_id = ANY($1::int[]) ORDER BY id`,
        [[user, visitor]],
      );
      expect(audit).toHaveLength(2);
      expect(audit).toEqual(
        expect.arrayContaining([
          { entity_id: user, before: { org_id: orgA }, after: { org_id: orgA2 } },
          { entity_id: visitor, before: { org_id: orgA }, after: { org_id: orgA2, moved_with: user } },
        ]),
      );
    });

    it('needs a caller who manages both organisations, and keeps a manager in its organisation', async () => {
      const user = await idOf('org_user_a');
      // managerA created the account but does not manage 第二校区.
      expect(await move(managerA, user, orgA)).toMatchObject({
        code: 403,
        message: '无权把账号调出其所在的组织',
      });
      // An organisation superA does not see is answered as a missing one.
      expect(await move(superA.token, user, orgB)).toMatchObject({ code: 404, message: '组织不存在' });
      expect(await move(superA.token, user, 999_999)).toMatchObject({ code: 404, message: '组织不存在' });
      // An organisation's manager stays in it.
      expect(await move(superA.token, await idOf('org_manager_a'), orgA2)).toMatchObject({
        code: 409,
        message: 'org_manager_a 是组织「org_manager_a 大学」的管理员，不能调出该组织',
      });
      expect(await move(managerA, await idOf('org_manager_a'), orgA2)).toMatchObject({
        code: 403,
        message: '不能修改自己所属的组织',
      });
      // Back, and then out of any organisation (0): the visitor below it follows each time.
      expect(await move(superA.token, user, orgA)).toMatchObject({ code: 200, data: { org_id: orgA } });
      expect(await row(await idOf('org_visitor_a'))).toMatchObject({ org_id: orgA });
      expect(await move(superA.token, user, 0)).toMatchObject({ code: 200, data: { org_id: null } });
      expect(await row(await idOf('org_visitor_a'))).toMatchObject({ org_id: null });
    });
  });
});
