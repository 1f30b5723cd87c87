// Planned maintenance in `npm run demo` (issue 18, 计划保养): a monthly plan on a dispenser that
// falls due at once, so the scheduler opens its 保养 order (with a checklist) within a minute
// of the start; a toilet plan counted in visitors from its gateway; a plan over every
// gateway due later this week. Everything goes through the API; the orders come from the job.
import { MAINTENANCE_API, PLAN_API, formatDateTime, type Page, type PlanRow } from '@se/core';
import type { ConsoleApi } from './fleet.ts';
import type { SimDevice } from './values.ts';

type Fleet = (SimDevice & { id: number })[];
const DAY = 86_400_000;

export async function seedMaintenancePlans(
  admin: ConsoleApi,
  demoUser: number,
  toilets: number[],
  fleet: Fleet,
) {
  const have = await admin.call<Page<PlanRow>>('GET', PLAN_API.list, { page_size: 10 });
  if (have.total > 0) return;
  const types = await admin.call<Page<{ id: number; code: string }>>('GET', MAINTENANCE_API.equipmentTypes, {
    page_size: 100,
  });
  const typeOf = (code: string) => types.list.find((t) => t.code === code)!.id;
  const add = (body: Record<string, unknown>) => admin.call<{ id: number }>('POST', PLAN_API.add, body);

  const dispenser = fleet.filter((d) => d.kind === 'jwb')[2];
  if (dispenser)
    await add({
      name: '除臭机月度保养',
      equipment_type_id: typeOf('jwb'),
      device_id: dispenser.id,
      trigger: 'days',
      every: 30,
      starts_at: formatDateTime(Date.now() - 60_000),
      response_hours: 48,
      assignee_id: demoUser,
      checklist: ['补充香薰液', '清洗雾化片', '检查风扇运转', '擦拭外壳和出雾口'],
      note: '每月一次',
    });
  if (toilets[0])
    await add({
      name: '每 500 人次深度保洁',
      equipment_type_id: typeOf('part0'),
      toilet_id: toilets[0],
      trigger: 'uses',
      every: 500,
      response_hours: 24,
      assignee_id: demoUser,
      checklist: ['疏通蹲位下水', '冲洗地面', '消毒洗手台'],
    });
  await add({
    name: '网关季度巡检',
    equipment_type_id: typeOf('gateway'),
    trigger: 'days',
    every: 90,
    starts_at: formatDateTime(Date.now() + 4 * DAY),
    response_hours: 72,
    checklist: ['检查供电和网线', '检查 4G 信号', '清理设备表面灰尘'],
  });
}
