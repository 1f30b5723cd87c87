import { DOCKING_API, USER_API } from '@se/core';
import type {
  AuditEntry,
  DockingInterface,
  Page,
  UpdateInfoBody,
  UpdateUserBody,
  UserInfo,
  UserRow,
  addDockingBody,
  addUserBody,
  auditQuery,
  dockingQuery,
  dockingTestResult,
  updateDockingBody,
  usersQuery,
} from '@se/core';
import type { z } from 'zod';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// User administration (SPEC §7 "Users"). Request shapes come from the core schemas
// (RequestOf); the optional fields left undefined are dropped by the client's form encoding.

export type UsersFilter = RequestOf<typeof usersQuery>;

export const listUsers = (filter: UsersFilter) =>
  get<Page<UserRow>>(USER_API.list, {
    ...filter,
    // The server reads a comma list as well as repeated keys; one parameter keeps URLs short.
    keys: filter.keys?.length ? filter.keys.join(',') : undefined,
  });

export const getUser = (userId: number) => get<UserRow>(USER_API.get, { user_id: userId });

export type AddUserRequest = RequestOf<typeof addUserBody>;

export const addUser = (body: AddUserRequest) => post<{ id: number }>(USER_API.add, body);

/** message_count is read-only on the server, so it is not offered here. */
export type UpdateUserRequest = Pick<UpdateUserBody, 'id'> &
  Partial<
    Pick<
      UpdateUserBody,
      'is_delete' | 'user_name' | 'email' | 'phone_num' | 'permissions' | 'services' | 'org_id'
    >
  >;

export const updateUser = (body: UpdateUserRequest) => post<UserRow>(USER_API.update, body);

/** The profile dialog's call (api/user.ts) edits the caller; this one edits a managed user. */
export const updateUserInfoOf = (
  userId: number,
  body: Pick<UpdateInfoBody, 'company_name' | 'company_address' | 'phone_num'>,
) => post<UserInfo>(USER_API.updateInfo, { user_id: userId, ...body });

export type DockingFilter = RequestOf<typeof dockingQuery>;

export const listDocking = (filter: DockingFilter) =>
  get<Page<DockingInterface>>(DOCKING_API.list, { ...filter });

export const getDocking = (id: number) => get<DockingInterface>(DOCKING_API.get, { id });

export type AddDockingRequest = RequestOf<typeof addDockingBody>;

export const addDocking = (body: AddDockingRequest) => post<DockingInterface>(DOCKING_API.add, body);

export type UpdateDockingRequest = RequestOf<typeof updateDockingBody>;

export const updateDocking = (body: UpdateDockingRequest) => post<DockingInterface>(DOCKING_API.update, body);

/** ok, HTTP status (null when none came back), latency, and the Chinese error text. */
export type DockingTestResult = z.infer<typeof dockingTestResult>;

export const testDocking = (id: number) => post<DockingTestResult>(DOCKING_API.test, { id });

export type AuditFilter = RequestOf<typeof auditQuery>;

export const listAudit = (filter: AuditFilter) => get<Page<AuditEntry>>(USER_API.auditLogs, { ...filter });
