import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, DATACENTER_API, PERMISSION, type DatacenterMap, type DatacenterOverview } from '@se/core';
import { ConfigError, loadConfig } from '../../config.ts';
import { addDevice, addToilet, sendReport, testApp, type Account, type TestApp } from '../../test/harness.ts';
import { localDay, localDayStart, sharedAnswers } from './service.ts';

let t: TestApp;
type Dev = { id: number; ser_num: string; token: string };
let dealerA: Account;
let dealerB: Account;
let viewerOnly: Account;
let visitorOnly: Account;
const dev = {} as Record<'g1' | 'g2' | 'g3' | 'j1' | 'j2' | 'j3' | 'e1', Dev>;
const toilet = {} as Record<'t1' | 't2' | 't3', number>;

const DATA_VIEW = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor | PERMISSION.dataView;

const add = (kind: 'gateway' | 'jwb' | 'evaluate', serNum: string, owner: Account) =>
  addDevice(t, kind, serNum, owner.token, { desc: serNum });

async function toiletAt(name: string, gateway: Dev, owner: Account, at?: [number, number], pname = '') {
  const body: Record<string, unknown> = { name, gateway_id: gateway.id, pname };
  if (at) [body.lng, body.lat] = at;
  return addToilet(t, owner.token, body);
}

async function comment(toiletId: number | null, stars: number, extra: Record<string, unknown> = {}) {
  const cols = ['toilet_id', 'star_level', ...Object.keys(extra)];
  const values = [toiletId, stars, ...Object.values(extra)];
  await t.ctx.db.query(
    `INSERT INTO comments (${cols.join(', ')}) VALUES (${cols.map((c, i) => (c === 'created_at' ? `now() - ($${i + 1})::interval` : `$${i + 1}`)).join(', ')})`,
    values,
  );
}

const overview = (token: string, url: string = DATACENTER_API.overview) =>
  t.get<DatacenterOverview>(url, undefined, { token });

// Reports stay inside today (UTC+8) even when the suite runs just after midnight.
const todayAt = (msAgo: number) => Math.max(Date.now() - msAgo, localDayStart(Date.now()) + 1000);

beforeAll(async () => {
  t = await testApp();
  dealerA = await t.account('dc_dealer_a', DATA_VIEW);
  dealerB = await t.account('dc_dealer_b', DATA_VIEW);
  viewerOnly = await t.account('dc_viewer', PERMISSION.dataView);
  visitorOnly = await t.account('dc_visitor', PERMISSION.visitor);

  dev.g1 = await add('gateway', 'DC-GW-1', dealerA);
  dev.g2 = await add('gateway', 'DC-GW-2', dealerA);
  dev.g3 = await add('gateway', 'DC-GW-3', dealerB);
  dev.j1 = await add('jwb', 'DC-JWB-1', dealerA);
  dev.j2 = await add('jwb', 'DC-JWB-2', dealerA);
  dev.j3 = await add('jwb', 'DC-JWB-3', dealerB);
  dev.e1 = await add('evaluate', 'DC-EVL-1', dealerA);
  toilet.t1 = await toiletAt('东门公厕', dev.g1, dealerA, [120.15, 30.28], '浙江省');
  toilet.t2 = await toiletAt('西门公厕', dev.g2, dealerA, [120.1, 30.25], '浙江省');
  toilet.t3 = await toiletAt('北站公厕', dev.g3, dealerB, [116.4, 39.9], '北京市');

  // History: an earlier hour today and the latest state.
  await sendReport(t, dev.g1, { male_times: 2, nh3: 0.05 }, todayAt(61 * 60_000));
  await sendReport(t, dev.g1, {
    male_count: 4,
    male_occupy: 3,
    female_count: 4,
    female_occupy: 1,
    male_times: 5,
    female_times: 3,
    nh3: 2.0,
    co2: 600,
  });
  await sendReport(
    t,
    dev.g2,
    { male_count: 2, male_occupy: 0, male_times: 1, nh3: 0.05, co2: 500 },
    todayAt(2000),
  );
  await sendReport(t, dev.g3, { male_count: 6, male_occupy: 6, male_times: 100, nh3: 0.5 });
  // Yesterday's uses are not today's visitors.
  await sendReport(t, dev.g1, { male_times: 40 }, localDayStart(Date.now()) - 3_600_000);
  await sendReport(t, dev.j1, { liquid: 50, warning: 32768 });
  await sendReport(t, dev.j2, { liquid: 500, warning: 0 });
  await sendReport(t, dev.j3, { liquid: 10, warning: 32768 });
  // G2 has been silent past the offline threshold.
  await t.ctx.db.query(`UPDATE devices SET time = now() - interval '6 hours' WHERE id = $1`, [dev.g2.id]);

  // Reviews arrive in time order (the feed is newest first by arrival). Hidden ones and
  // those older than the window count nowhere.
  await comment(toilet.t1, 3, { created_at: '40 days' });
  await comment(toilet.t1, 1, { smelly: true, poorsanitary: true, created_at: '2 days' });
  await comment(toilet.t1, 5, { content: '很干净' });
  await comment(toilet.t3, 2, { badattitude: true });
  await comment(toilet.t1, 3, { is_delete: true });
  await comment(null, 4, { equipment_id: dev.e1.id });
});
afterAll(() => t.close());

describe('datacenter overview', () => {
  it('counts what the dealer sees: toilets, devices online by kind, visitors today, alarms', async () => {
    const r = await overview(dealerA.token);
    expect(r.code).toBe(200);
    const { totals } = r.data;
    expect(totals.toilets).toBe(2);
    expect(totals.alarm).toBe(1);
    const kinds = Object.fromEntries(totals.devices.map((d) => [d.kind, d]));
    expect(kinds.gateway).toEqual({ kind: 'gateway', total: 2, online: 1 });
    expect(kinds.jwb).toEqual({ kind: 'jwb', total: 2, online: 2 });
    expect(kinds.evaluate).toEqual({ kind: 'evaluate', total: 1, online: 0 });
    // 2 + 5 + 3 from G1, 1 from G2; G3 belongs to the other dealer; yesterday's 40 is not today.
    expect(totals.visitors_today).toBe(11);
    expect(r.data.visitors.reduce((n, h) => n + h.male + h.female + h.others, 0)).toBe(11);
    expect(r.data.visitors.every((h) => h.hour >= localDayStart(Date.now()))).toBe(true);
    // G1's NH3 2.0 (> 1.5) opened an air alarm; J1's lack of liquid a device alarm.
    expect(totals.alarms_open).toBe(2);
    expect(r.data.alarms.map((a) => a.ser_num).sort()).toEqual(['DC-GW-1', 'DC-JWB-1']);
  });

  it('answers live occupancy per toilet, busiest first, and the sums', async () => {
    const { occupancy } = (await overview(dealerA.token)).data;
    expect(occupancy.cubicles).toBe(10);
    expect(occupancy.occupied).toBe(4);
    expect(occupancy.list.map((o) => o.name)).toEqual(['东门公厕', '西门公厕']);
    expect(occupancy.list[0]).toMatchObject({
      toilet_id: toilet.t1,
      gateway_id: dev.g1.id,
      online: true,
      male: { count: 4, occupy: 3 },
      female: { count: 4, occupy: 1 },
      others: { count: 0, occupy: 0 },
    });
    expect(occupancy.list[1]!.online).toBe(false);
  });

  it('ranks air quality worst first with the levels of core/air', async () => {
    const { air } = (await overview(dealerA.token)).data;
    expect(air.levels).toEqual({ good: 1, fair: 0, poor: 1 });
    expect(air.list[0]).toMatchObject({
      toilet_id: toilet.t1,
      level: 'poor',
      gases: { nh3: 2, co2: 600 },
      gas_levels: { nh3: 'poor', co2: 'good' },
    });
    expect(air.list[0]!.score).toBeLessThan(air.list[1]!.score);
    expect(air.list[1]).toMatchObject({ toilet_id: toilet.t2, level: 'good', score: 1 });
  });

  it('gives 30 days of ratings with averages, flags and stars; hidden and older reviews left out', async () => {
    const { ratings, totals, comments } = (await overview(dealerA.token)).data;
    expect(ratings.days).toHaveLength(30);
    expect(ratings.days.at(-1)).toEqual({ day: localDay(Date.now()), count: 2, avg: 4.5 });
    const twoDaysAgo = ratings.days.find((d) => d.day === localDay(Date.now() - 2 * 86_400_000));
    expect(twoDaysAgo).toEqual({ day: twoDaysAgo!.day, count: 1, avg: 1 });
    expect(ratings.days.filter((d) => d.count === 0).every((d) => d.avg === null)).toBe(true);
    expect(ratings.flags).toEqual({ badattitude: 0, inefficiency: 0, poorsanitary: 1, smelly: 1 });
    expect(ratings.stars).toEqual([1, 0, 0, 1, 1]);
    expect(totals.comments_today).toBe(2);
    // The terminal's rating (no toilet) is visible through the terminal, newest first.
    expect(comments.map((c) => c.toilet_name)).toEqual(['DC-EVL-1', '东门公厕', '东门公厕', '东门公厕']);
    expect(comments.find((c) => c.content === '很干净')).toMatchObject({ star_level: 5, smelly: false });
  });

  it('lists dispensers emptiest first with the lack-of-liquid count and fill bands', async () => {
    const { liquid } = (await overview(dealerA.token)).data;
    expect(liquid.total).toBe(2);
    expect(liquid.lacking).toBe(1);
    // 50/550 ≈ 9 % → first band; 500/550 ≈ 91 % → last band.
    expect(liquid.bands).toEqual([1, 0, 0, 0, 1, 0]);
    expect(liquid.list.map((l) => [l.ser_num, l.liquid, l.warning])).toEqual([
      ['DC-JWB-1', 50, 32768],
      ['DC-JWB-2', 500, 0],
    ]);
  });

  it('shows the other dealer only its own toilet, and develop everything', async () => {
    const b = (await overview(dealerB.token)).data;
    expect(b.totals.toilets).toBe(1);
    expect(b.totals.visitors_today).toBe(100);
    expect(b.occupancy.list.map((o) => o.toilet_id)).toEqual([toilet.t3]);
    expect(b.air.list.map((a) => a.toilet_id)).toEqual([toilet.t3]);
    expect(b.liquid.list.map((l) => l.ser_num)).toEqual(['DC-JWB-3']);
    expect(b.comments.map((c) => c.star_level)).toEqual([2]);
    expect(b.ratings.flags.badattitude).toBe(1);
    expect(b.alarms.map((a) => a.ser_num)).toEqual(['DC-JWB-3']);

    const admin = await t.login('admin', 'admin-pass-123');
    const all = (await overview(admin)).data;
    expect(all.totals.toilets).toBe(3);
    expect(all.totals.visitors_today).toBe(111);
    expect(all.occupancy.list[0]!.toilet_id).toBe(toilet.t3);
  });

  it('gives a user without toilets zeros and empty lists, not errors', async () => {
    const r = await overview(viewerOnly.token);
    expect(r.code).toBe(200);
    expect(r.data.totals).toMatchObject({ toilets: 0, visitors_today: 0, alarms_open: 0 });
    expect(r.data.occupancy).toEqual({ cubicles: 0, occupied: 0, list: [] });
    expect(r.data.liquid).toMatchObject({ total: 0, lacking: 0, list: [] });
    expect(r.data.ratings.days).toHaveLength(30);
  });
});

describe('datacenter map', () => {
  it('answers visible toilets with positions, online state and provinces', async () => {
    const r = await t.get<DatacenterMap>(DATACENTER_API.map, undefined, { token: dealerA.token });
    expect(r.code).toBe(200);
    expect(r.data.truncated).toBe(false);
    expect(r.data.points.map((p) => [p.name, p.lng, p.lat, p.online])).toEqual([
      ['东门公厕', 120.15, 30.28, true],
      ['西门公厕', 120.1, 30.25, false],
    ]);
    expect(r.data.provinces).toEqual([{ pname: '浙江省', count: 2 }]);
  });
});

describe('datacenter access', () => {
  it('needs the data-centre bit for the three centres and the smart-toilet bit for /st-data-center', async () => {
    expect((await overview(visitorOnly.token)).code).toBe(CODE.forbidden);
    expect((await t.get(DATACENTER_API.map, undefined, { token: visitorOnly.token })).code).toBe(
      CODE.forbidden,
    );
    expect((await overview(visitorOnly.token, DATACENTER_API.stOverview)).code).toBe(200);
    expect((await overview(viewerOnly.token, DATACENTER_API.stOverview)).code).toBe(CODE.forbidden);
    expect((await t.get(DATACENTER_API.overview)).code).toBe(CODE.unauthorized);
  });

  it('answers /st-data-center with the same scoped numbers', async () => {
    const st = (await overview(dealerA.token, DATACENTER_API.stOverview)).data;
    expect(st.totals.toilets).toBe(2);
    expect(st.totals.visitors_today).toBe(11);
    const map = await t.get<DatacenterMap>(DATACENTER_API.stMap, undefined, { token: dealerB.token });
    expect(map.data.points.map((p) => p.name)).toEqual(['北站公厕']);
  });
});

describe('datacenter answers shared per scope', () => {
  it('computes a burst of 50 dashboards of one dealer once, and never gives a dealer the other one’s numbers', async () => {
    // Its own app: nothing cached yet, and no refresh due while the burst runs.
    const c = await testApp({ datacenterCacheMs: 60_000 });
    try {
      const x = await c.account('dc_share_x', DATA_VIEW);
      const y = await c.account('dc_share_y', DATA_VIEW);
      for (const [owner, sers] of [
        [x, ['DC-SH-X1', 'DC-SH-X2']],
        [y, ['DC-SH-Y1']],
      ] as const) {
        for (const ser of sers) {
          const g = await addDevice(c, 'gateway', ser, owner.token, { desc: ser });
          await addToilet(c, owner.token, { name: `${ser}公厕`, gateway_id: g.id, pname: '' });
          await sendReport(c, g, {
            male_count: 2,
            male_occupy: 1,
            male_times: ser.startsWith('DC-SH-X') ? 7 : 3,
          });
        }
      }
      const shared = sharedAnswers(c.ctx).overview;
      const before = shared.computed;
      // 25 dashboards per URL (the per-user limit is per URL), both data centres, both dealers.
      const burst = [x, y].flatMap((who) =>
        [DATACENTER_API.overview, DATACENTER_API.stOverview].flatMap((url) =>
          Array.from({ length: 25 }, () =>
            c.get<DatacenterOverview>(url, undefined, { token: who.token }).then((r) => ({ who, r })),
          ),
        ),
      );
      const answers = await Promise.all(burst);
      expect(answers.every((a) => a.r.code === 200)).toBe(true);
      expect(shared.computed - before).toBe(2);
      const of = (who: Account) => answers.filter((a) => a.who === who).map((a) => a.r.data);
      expect(of(x)).toHaveLength(50);
      for (const d of of(x)) {
        expect(d.totals.toilets).toBe(2);
        expect(d.totals.visitors_today).toBe(14);
        expect(d.occupancy.list.map((o) => o.name).sort()).toEqual(['DC-SH-X1公厕', 'DC-SH-X2公厕']);
      }
      for (const d of of(y)) {
        expect(d.totals.toilets).toBe(1);
        expect(d.totals.visitors_today).toBe(3);
        expect(d.occupancy.list.map((o) => o.name)).toEqual(['DC-SH-Y1公厕']);
      }
      // A later dashboard of the same dealer is served the shared answer.
      await c.get(DATACENTER_API.overview, undefined, { token: x.token });
      expect(shared.computed - before).toBe(2);
    } finally {
      await c.close();
    }
  });

  it('is switched off by DATACENTER_CACHE_MS=0 (every request computes)', () => {
    expect(loadConfig({}).datacenterCacheMs).toBe(3000);
    expect(loadConfig({ DATACENTER_CACHE_MS: '0' }).datacenterCacheMs).toBe(0);
    expect(() => loadConfig({ DATACENTER_CACHE_MS: '-1' })).toThrow(/DATACENTER_CACHE_MS/);
  });
});

describe('map tiles (MAP_TILE_URL)', () => {
  it('accepts an http(s) URL or a path on this server with {z}, {x}, {y}, and nothing else', () => {
    const url = 'https://tiles.example.com/{z}/{x}/{y}.png';
    expect(loadConfig({ MAP_TILE_URL: url }).mapTileUrl).toBe(url);
    expect(loadConfig({ MAP_TILE_URL: '/tiles/{z}/{x}/{y}.png' }).mapTileUrl).toBe('/tiles/{z}/{x}/{y}.png');
    expect(loadConfig({}).mapTileUrl).toBeUndefined();
    for (const bad of [
      'ftp://x/{z}/{x}/{y}',
      'https://tiles.example.com/tile.png',
      '//evil/{z}/{x}/{y}',
      'tiles',
    ]) {
      expect(() => loadConfig({ MAP_TILE_URL: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    }
  });

  it('tells the console the tile URL and lets the page load images from that origin only', async () => {
    const tiles = await testApp({ mapTileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png' });
    try {
      const site = await tiles.get<{ map_tile_url: string }>('/api/v1/site');
      expect(site.data.map_tile_url).toBe('https://tiles.example.com/{z}/{x}/{y}.png');
      const csp = String(site.res.headers['content-security-policy']);
      expect(csp).toContain("img-src 'self' data: blob: https://tiles.example.com;");
      expect(csp).toContain("script-src 'self';");
    } finally {
      await tiles.close();
    }
    const plain = await t.get<{ map_tile_url: string }>('/api/v1/site');
    expect(plain.data.map_tile_url).toBe('');
    expect(String(plain.res.headers['content-security-policy'])).toContain("img-src 'self' data: blob:;");
  });
});
