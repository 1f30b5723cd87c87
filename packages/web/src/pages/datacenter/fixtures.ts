import { JWB_WARNING, type DatacenterOverview } from '@se/core';

/** A small overview as the server answers it, for the option and live-state tests. */
export function sampleOverview(): DatacenterOverview {
  const day = (d: string, count: number, avg: number | null) => ({ day: d, count, avg });
  const seats = (count: number, occupy: number) => ({ count, occupy });
  // Two toilets, each with its gateway.
  const place = (id: 1 | 2) => ({
    toilet_id: id,
    name: ['东门公厕', '西门公厕'][id - 1]!,
    gateway_id: 10 + id,
  });
  return {
    generated_at: Date.UTC(2025, 5, 1, 4, 0),
    totals: {
      toilets: 3,
      cleaning: 1,
      repair: 0,
      alarm: 1,
      devices: [
        { kind: 'gateway', total: 3, online: 2 },
        { kind: 'jwb', total: 2, online: 1 },
        { kind: 'sensor', total: 1, online: 0 },
      ],
      visitors_today: 12,
      alarms_open: 1,
      alarms_active: 2,
      comments_today: 1,
    },
    // 09:00 and 11:00 UTC+8
    visitors: [
      { hour: Date.UTC(2025, 5, 1, 1), male: 3, female: 2, others: 0 },
      { hour: Date.UTC(2025, 5, 1, 3), male: 4, female: 2, others: 1 },
    ],
    occupancy: {
      cubicles: 14,
      occupied: 5,
      list: [
        { ...place(1), online: true, male: seats(4, 3), female: seats(4, 1), others: seats(0, 0) },
        { ...place(2), online: false, male: seats(6, 1), female: seats(0, 0), others: seats(0, 0) },
      ],
    },
    air: {
      levels: { good: 1, fair: 0, poor: 1 },
      list: [
        { ...place(1), gases: { nh3: 2 }, score: 0.5, level: 'poor', gas_levels: { nh3: 'poor' } },
        { ...place(2), gases: { nh3: 0.05 }, score: 1, level: 'good', gas_levels: { nh3: 'good' } },
      ],
    },
    alarms: [
      {
        id: 7,
        device_id: 11,
        kind: 'gateway',
        ser_num: 'GW-1',
        desc: '东门网关',
        toilet_id: 1,
        type: 'air',
        status: 'open',
        message: '氨气 2 超过 1.5',
        detail: {},
        opened_at: '2025-06-01 11:50:00',
        acked_at: null,
        acked_by_name: '',
        closed_at: null,
      },
    ],
    ratings: {
      days: [day('2025-05-31', 0, null), day('2025-06-01', 1, 4)],
      flags: { badattitude: 0, inefficiency: 1, poorsanitary: 0, smelly: 2 },
      stars: [0, 0, 0, 1, 0],
    },
    liquid: {
      total: 2,
      lacking: 1,
      bands: [1, 0, 0, 0, 1, 0],
      list: [
        {
          id: 21,
          ser_num: 'JWB-1',
          desc: '男卫除臭机',
          online: true,
          liquid: 11,
          warning: JWB_WARNING.lackOfLiquid,
        },
        { id: 22, ser_num: 'JWB-2', desc: '', online: false, liquid: 500, warning: 0 },
      ],
    },
    comments: [],
  };
}
