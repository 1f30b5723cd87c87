// The maintenance part of `npm run demo` (issue 18): one dispenser starts almost out of liquid,
// so the simulator raises a 缺液 alarm a manager can open a work order from, and a few work
// orders exist from the start (one waiting on a toilet's broken door lock, which sets the
// toilet's 维修中 flag, one in progress, one accepted). Everything goes through the API.
import { MAINTENANCE_API, TOILET_DETAIL_API, type Page, type RecordRow } from '@se/core';
import type { ConsoleApi } from './fleet.ts';
import type { SimDevice } from './values.ts';

/** Below the dispenser's 缺液 threshold: its first report raises the alarm. */
const LOW_LIQUID = 15;

type Fleet = (SimDevice & { id: number })[];

export async function seedMaintenance(admin: ConsoleApi, demoUser: number, toilets: number[], fleet: Fleet) {
  const dispensers = fleet.filter((d) => d.kind === 'jwb');
  if (dispensers[0]) dispensers[0].liquid = LOW_LIQUID;

  const have = await admin.call<Page<RecordRow>>('GET', MAINTENANCE_API.records, { page_size: 10 });
  if (have.total > 0 || !toilets[0]) return;
  const types = await admin.call<Page<{ id: number; code: string }>>('GET', MAINTENANCE_API.equipmentTypes, {
    page_size: 100,
  });
  const typeOf = (code: string) => types.list.find((t) => t.code === code)!.id;
  const faultOf = async (equipment: number, name: string) => {
    const f = await admin.call<Page<{ id: number; name: string }>>('GET', MAINTENANCE_API.faultTypes, {
      equipment_type_id: equipment,
      page_size: 100,
    });
    return f.list.find((x) => x.name === name)?.id;
  };
  const add = (body: Record<string, unknown>) =>
    admin.call<{ id: number }>('POST', MAINTENANCE_API.addRecord, body).then((r) => r.id);

  // A broken door lock in the first toilet, waiting for someone to be sent.
  const lock = typeOf('part5');
  const part = await admin.call<{ id: number }>('POST', TOILET_DETAIL_API.addPart, {
    toilet_id: toilets[0],
    type: 5,
    name: '女厕 3 号门锁',
  });
  await add({
    part_id: part.id,
    equipment_type_id: lock,
    fault_type_id: await faultOf(lock, '损坏'),
    description: '门锁锁舌断裂，无法反锁',
  });

  const jwb = typeOf('jwb');
  const second = dispensers[1];
  if (second) {
    // Done and accepted: a history entry, a mean time to repair.
    const id = await add({
      device_id: second.id,
      equipment_type_id: jwb,
      fault_type_id: await faultOf(jwb, '雾化器故障'),
      description: '雾化量明显变小',
      assignee_id: demoUser,
    });
    await admin.call('POST', MAINTENANCE_API.complete, {
      id,
      remedy: '清洗雾化片，更换密封圈',
      parts_replaced: '密封圈 1 个',
      cost: 12,
      minutes_spent: 35,
    });
    await admin.call('POST', MAINTENANCE_API.accept, { id, note: '现场复查正常' });
  }
  const paper = fleet.find((d) => d.kind === 'paper_machine');
  if (paper) {
    const pm = typeOf('paper_machine');
    // Assigned when reported: 处理中.
    await add({
      device_id: paper.id,
      equipment_type_id: pm,
      fault_type_id: await faultOf(pm, '卡纸'),
      description: '出纸口卡纸',
      assignee_id: demoUser,
    });
  }
}
