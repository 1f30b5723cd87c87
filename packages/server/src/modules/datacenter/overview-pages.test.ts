import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATACENTER_API, PERMISSION, type DatacenterOverview } from '@se/core';
import { bindToilets } from '../toilets/repo.ts';
import { adminApp, type Account, type TestApp } from '../../test/harness.ts';
import { STATES_PAGE } from './service.ts';

// The overview folds the toilets' latest reports page by page (STATES_PAGE at a time, the
// event loop free in between): every toilet counts once, whichever page it falls on.
const TOILETS = 2 * STATES_PAGE + 345;

let t: TestApp;
let admin: string;
let dealer: Account;
let dealerToilets = 0;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  dealer = await t.account(
    'ovp_dealer',
    PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor | PERMISSION.dataView,
  );
  // Toilet g has 1 + g % 3 cubicles for men, g % 2 of them taken, and an NH₃ reading.
  await t.ctx.db.query(
    `INSERT INTO devices (kind, ser_num, "desc", token, time, latest)
     SELECT 'gateway', 'OVP-GW-' || g, 'OVP' || g, 'tk' || g, now(),
            jsonb_build_object('male_count', 1 + g % 3, 'male_occupy', g % 2, 'nh3', (g % 7) / 2.0)
       FROM generate_series(1, $1::int) g`,
    [TOILETS],
  );
  const ids = await t.ctx.db.query<{ id: number }>(
    `INSERT INTO toilets (name, gateway_id)
     SELECT '分页公厕' || d.ser_num, d.id FROM devices d WHERE d.ser_num LIKE 'OVP-GW-%' ORDER BY d.id
     RETURNING id`,
  );
  // Every third toilet, across every page boundary, is the dealer's.
  const mine = ids.map((r) => r.id).filter((_, i) => i % 3 === 0);
  dealerToilets = mine.length;
  await bindToilets(t.ctx.db, dealer.id, mine);
});
afterAll(() => t?.close());

const overview = (token: string) => t.get<DatacenterOverview>(DATACENTER_API.overview, undefined, { token });

describe('overview over more toilets than one page', () => {
  it('counts every toilet once for develop', async () => {
    const res = await overview(admin);
    expect(res.code).toBe(200);
    const o = res.data;
    let cubicles = 0;
    let occupied = 0;
    for (let g = 1; g <= TOILETS; g++) {
      cubicles += 1 + (g % 3);
      occupied += g % 2;
    }
    expect(o.occupancy.cubicles).toBe(cubicles);
    expect(o.occupancy.occupied).toBe(occupied);
    expect(o.air.levels.good + o.air.levels.fair + o.air.levels.poor).toBe(TOILETS);
    // The busiest toilets first, whatever page they were read on.
    const ratios = o.occupancy.list.map((r) => r.male.occupy / r.male.count);
    expect(ratios).toEqual([...ratios].sort((a, b) => b - a));
    expect(ratios[0]).toBe(1);
  });

  it("counts only the dealer's toilets for the dealer", async () => {
    const o = (await overview(dealer.token)).data;
    expect(o.air.levels.good + o.air.levels.fair + o.air.levels.poor).toBe(dealerToilets);
    expect(o.occupancy.list.every((r) => r.name.startsWith('分页公厕'))).toBe(true);
  });
});
