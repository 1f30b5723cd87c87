import {
  MAINTENANCE_API,
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
import { get, post } from './client.ts';
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
export const assignRecord = (b: RequestOf<typeof assignBody>) => post<RecordDetail>(MAINTENANCE_API.assign, b);
export const completeRecord = (b: RequestOf<typeof completeBody>) =>
  post<RecordDetail>(MAINTENANCE_API.complete, b);
type Step = RequestOf<typeof stepBody>;
export const acceptRecord = (b: Step) => post<RecordDetail>(MAINTENANCE_API.accept, b);
export const rejectRecord = (b: Step) => post<RecordDetail>(MAINTENANCE_API.reject, b);
export const cancelRecord = (b: Step) => post<RecordDetail>(MAINTENANCE_API.cancel, b);
export const maintenanceStats = () => get<MaintenanceStats>(MAINTENANCE_API.stats);
