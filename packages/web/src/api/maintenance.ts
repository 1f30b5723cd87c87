import {
  MAINTENANCE_API,
  PLAN_API,
  TEAM_API,
  type PlanRow,
  type TeamRow,
  type addTeamBody,
  type teamsQuery,
  type updateTeamBody,
  type addPlanBody,
  type checkStepBody,
  type planAssigneesQuery,
  type plansQuery,
  type updatePlanBody,
  SESSION_CODES,
  type Envelope,
  type AssigneeRow,
  type EquipmentTypeRow,
  type FaultTypeRow,
  type MaintenanceStats,
  type Page,
  type PageQuery,
  type Prefill,
  type RecordDetail,
  type RecordRow,
  type addEquipmentTypeBody,
  type addFaultTypeBody,
  type addRecordBody,
  type assignBody,
  type completeBody,
  type equipmentTypesQuery,
  type faultTypesQuery,
  type prefillQuery,
  type recordsQuery,
  type stepBody,
  type updateEquipmentTypeBody,
  type updateFaultTypeBody,
} from '@se/core';
import { readToken } from '../session/storage.ts';
import { ApiError, TIMEOUT_MS, get, post, sessionExpired } from './client.ts';
import type { RequestOf } from './request.ts';

// 维修服务: catalogues (/equipment-type, /fault-type) and work orders.

export const listEquipmentTypes = (q: RequestOf<typeof equipmentTypesQuery> & Partial<PageQuery>) =>
  get<Page<EquipmentTypeRow>>(MAINTENANCE_API.equipmentTypes, q);
export const addEquipmentType = (b: RequestOf<typeof addEquipmentTypeBody>) =>
  post<{ id: number }>(MAINTENANCE_API.addEquipmentType, b);
export const updateEquipmentType = (b: RequestOf<typeof updateEquipmentTypeBody>) =>
  post<{ id: number }>(MAINTENANCE_API.updateEquipmentType, b);

export const listFaultTypes = (q: RequestOf<typeof faultTypesQuery> & Partial<PageQuery>) =>
  get<Page<FaultTypeRow>>(MAINTENANCE_API.faultTypes, q);
export const addFaultType = (b: RequestOf<typeof addFaultTypeBody>) =>
  post<{ id: number }>(MAINTENANCE_API.addFaultType, b);
export const updateFaultType = (b: RequestOf<typeof updateFaultTypeBody>) =>
  post<{ id: number }>(MAINTENANCE_API.updateFaultType, b);

export type RecordsQuery = RequestOf<typeof recordsQuery>;
export const listRecords = (q: RecordsQuery) => get<Page<RecordRow>>(MAINTENANCE_API.records, q);
export const getRecord = (id: number) => get<RecordDetail>(MAINTENANCE_API.record, { id });
export const prefillRecord = (q: RequestOf<typeof prefillQuery>) => get<Prefill>(MAINTENANCE_API.prefill, q);
export type NewRecord = RequestOf<typeof addRecordBody>;
export const addRecord = (b: NewRecord) => post<{ id: number; no: string }>(MAINTENANCE_API.addRecord, b);
export const listAssignees = (id: number, keywords?: string) =>
  get<AssigneeRow[]>(MAINTENANCE_API.assignees, { id, keywords });
export const assignRecord = (b: RequestOf<typeof assignBody>) =>
  post<RecordDetail>(MAINTENANCE_API.assign, b);
export const completeRecord = (b: RequestOf<typeof completeBody>) =>
  post<RecordDetail>(MAINTENANCE_API.complete, b);
type Step = RequestOf<typeof stepBody>;
export const acceptRecord = (b: Step) => post<RecordDetail>(MAINTENANCE_API.accept, b);
export const rejectRecord = (b: Step) => post<RecordDetail>(MAINTENANCE_API.reject, b);
export const cancelRecord = (b: Step) => post<RecordDetail>(MAINTENANCE_API.cancel, b);
export const maintenanceStats = () => get<MaintenanceStats>(MAINTENANCE_API.stats);

// client.ts keeps its header builder to itself; raw bodies and images need the same token headers (SPEC §7).
function tokenHeaders(): Record<string, string> {
  const token = readToken();
  return token ? { Authorization: token, 'X-Token': token } : {};
}

/** Sends one photo (already compressed) to a record as the raw body. */
export async function uploadPhoto(id: number, photo: Blob): Promise<Envelope<{ photo_count: number }>> {
  let response: Response;
  try {
    response = await fetch(`${MAINTENANCE_API.addPhoto}?id=${id}`, {
      method: 'POST',
      headers: { ...tokenHeaders(), 'Content-Type': 'application/octet-stream' },
      body: photo,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new ApiError('network', 'Network Error');
  }
  try {
    const env = (await response.json()) as Envelope<{ photo_count: number }>;
    if (SESSION_CODES.includes(env.code)) sessionExpired(env.message);
    return env;
  } catch {
    throw new ApiError('format', '服务器返回的数据无法识别', response.status);
  }
}

/** A record's photo as an object URL (an <img src> cannot carry the token headers); revoke it when done. */
export async function photoUrl(id: number, n: number): Promise<string> {
  const response = await fetch(`${MAINTENANCE_API.photo}?id=${id}&n=${n}`, { headers: tokenHeaders() });
  const blob = await response.blob();
  if (!blob.type.startsWith('image/')) throw new ApiError('format', '照片加载失败', response.status);
  return URL.createObjectURL(blob);
}

// 计划保养: plans and the checklist of the orders they open.
export type PlansQuery = RequestOf<typeof plansQuery>;
export const listPlans = (q: PlansQuery) => get<Page<PlanRow>>(PLAN_API.list, q);
export const addPlan = (b: RequestOf<typeof addPlanBody>) => post<{ id: number }>(PLAN_API.add, b);
export const updatePlan = (b: RequestOf<typeof updatePlanBody>) => post<{ id: number }>(PLAN_API.update, b);
export const listPlanAssignees = (q: RequestOf<typeof planAssigneesQuery>) =>
  get<AssigneeRow[]>(PLAN_API.assignees, q);
export const checkStep = (b: RequestOf<typeof checkStepBody>) => post<RecordDetail>(PLAN_API.checkStep, b);

// 维修班组: the teams a plan's orders go to.
export const listTeams = (q: RequestOf<typeof teamsQuery>) => get<Page<TeamRow>>(TEAM_API.list, q);
export const addTeam = (b: RequestOf<typeof addTeamBody>) => post<{ id: number }>(TEAM_API.add, b);
export const updateTeam = (b: RequestOf<typeof updateTeamBody>) => post<{ id: number }>(TEAM_API.update, b);
