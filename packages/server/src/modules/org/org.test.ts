import { ORG_API, PERMISSION, type OrgRow } from '@se/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApp, auditOf, postRaw, type Account, type TestApp } from '../../test/harness.ts';

const MANAGER = PERMISSION.ssManager | PERMISSION.ssUser | PERMISSION.ssVisitor;

let t: TestApp;
let admin: string;
let superSaled: Account;
let mgrA: Account;
let userA: Account;
let mgrB: Account;
let orgA: OrgRow;
let orgB: OrgRow;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  superSaled = await t.account('os_super', PERMISSION.ssSuperSaled, 1);
  mgrA = await t.account('os_mgr_a', MANAGER, superSaled.id);
  mgrB = await t.account('os_mgr_b', MANAGER, 1);
  orgA = (
    await t.post<OrgRow>(ORG_API.add, { name: '甲大学', user_id: mgrA.id }, { token: superSaled.token })
  ).data;
  orgB = (await t.post<OrgRow>(ORG_API.add, { name: '乙工厂', user_id: mgrB.id }, { token: admin })).data;
  userA = await t.account('os_user_a', PERMISSION.ssUser | PERMISSION.ssVisitor, mgrA.id);
  await t.ctx.db.query('UPDATE users SET org_id = $1 WHERE id = $2', [orgA.id, userA.id]);
});
afterAll(() => t.close());

const upload = (token: string, id: number, body: Buffer) =>
  postRaw(t, token, `${ORG_API.uploadLogo}?id=${id}`, body);

describe('organisations', () => {
  it('ssSuperSaled creates an organisation for a manager it administers, not for others', async () => {
    expect(orgA).toMatchObject({ name: '甲大学', user_id: mgrA.id });
    const other = await t.account('os_mgr_c', MANAGER, 1);
    const refused = await t.post(ORG_API.add, { name: 'x', user_id: other.id }, { token: superSaled.token });
    expect(refused.code).toBe(403);
    expect(
      (await t.post(ORG_API.add, { name: 'x', user_id: mgrA.id }, { token: superSaled.token })).message,
    ).toBe('该账号已属于一个组织');
    expect((await t.post(ORG_API.add, { name: 'x', user_id: userA.id }, { token: mgrA.token })).code).toBe(
      403,
    );
  });

  it('its people read it, its manager edits it, nobody of another organisation sees it', async () => {
    const seen = await t.get<OrgRow>(ORG_API.get, {}, { token: userA.token });
    expect(seen.data).toMatchObject({ id: orgA.id, name: '甲大学' });
    const edit = await t.post<OrgRow>(
      ORG_API.update,
      { id: orgA.id, slogan: '求是创新', org_url: 'https://a.example.edu', email: 'office@a.example.edu' },
      { token: mgrA.token },
    );
    expect(edit.data).toMatchObject({ slogan: '求是创新', org_url: 'https://a.example.edu' });
    expect((await t.post(ORG_API.update, { id: orgA.id, slogan: 'x' }, { token: userA.token })).code).toBe(
      403,
    );
    expect(
      (await t.post(ORG_API.update, { id: orgA.id, org_url: 'javascript:alert(1)' }, { token: mgrA.token }))
        .message,
    ).toBe('网址格式不正确');
    expect((await t.get(ORG_API.get, { id: orgB.id }, { token: userA.token })).code).toBe(404);
    expect((await t.post(ORG_API.update, { id: orgB.id, slogan: 'x' }, { token: mgrA.token })).code).toBe(
      404,
    );
    expect((await t.get(ORG_API.get, { id: orgA.id }, { token: superSaled.token })).code).toBe(200);
    expect((await t.get(ORG_API.get, { id: orgB.id }, { token: superSaled.token })).code).toBe(404);
    const log = await auditOf(t, mgrA.id);
    expect(log.some((e) => e.action === 'org.add')).toBe(true);
  });

  it('the logo is re-encoded (metadata gone), served as an image that cannot run, and SVG is refused', async () => {
    const png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#1677ff' } })
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-gps' } } })
      .png()
      .toBuffer();
    const res = await upload(mgrA.token, orgA.id, png);
    const env = res.json() as { code: number; data: OrgRow };
    expect(env.code).toBe(200);
    expect(env.data.logo).toMatch(/\.webp$/);

    const got = await t.app.inject({
      method: 'GET',
      url: `${ORG_API.logo}?id=${orgA.id}`,
      headers: { 'x-token': userA.token },
    });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/webp');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(String(got.headers['content-disposition'])).toMatch(/^inline/);
    const meta = await sharp(got.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 64, height: 40 });
    expect(meta.exif).toBeUndefined();

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refused = (await upload(mgrA.token, orgA.id, svg)).json() as { code: number; message: string };
    expect(refused.code).toBe(400);
    expect(refused.message).toContain('不支持 SVG');
    expect(((await upload(userA.token, orgA.id, png)).json() as { code: number }).code).toBe(403);
    expect(((await upload(mgrA.token, orgB.id, png)).json() as { code: number }).code).toBe(404);
    const other = await t.app.inject({
      method: 'GET',
      url: `${ORG_API.logo}?id=${orgA.id}`,
      headers: { 'x-token': mgrB.token },
    });
    expect((other.json() as { code: number }).code).toBe(404);
  });
});
