import { DOCKING_API, USER_API } from '@se/core';
import type {
  AuditEntry,
  DockingInterface,
  Page,
  PageQuery,
  UpdateInfoBody,
  UpdateUserBody,
  UserInfo,
  UserRow,
  USER_SEARCH_KEYS,
  dockingTestResult,
} from '@se/core';
import type { z } from 'zod';
import { get, post } from './client.ts';

// User administration (SPEC §7 "Users"). Request shapes come from the core schemas' input
// side; the optional fields left undefined are dropped by the client's form encoding.

export interface UsersFilter extends Partial<PageQuery> {
  keywords?: string;
  keys?: (typeof USER_SEARCH_KEYS)[number][];
  /** That user's subtree instead of the caller's. */
  user_id?: number;
  /** Permission bits every listed user must hold. */
  permission?: number;
  need_match_count?: boolean;
}

export const listUsers = (filter: UsersFilter) =>
  get<Page<UserRow>>(USER_API.list, {
    ...filter,
    // The server reads a comma list as well as repeated keys; one parameter keeps URLs short.
    keys: filter.keys?.length ? filter.keys.join(',') : undefined,
  });

export const getUser = (userId: number) => get<UserRow>(USER_API.get, { user_id: userId });

export interface AddUserRequest {
  user_name: string;
  password: string;
  email?: string;
  phone_num?: string;
  permissions: number;
}

export const addUser = (body: AddUserRequest) => post<{ id: number }>(USER_API.add, body);

/** message_count is read-only on the server, so it is not offered here. */
export type UpdateUserRequest = Pick<UpdateUserBody, 'id'> &
  Partial<
    Pick<UpdateUserBody, 'is_delete' | 'user_name' | 'email' | 'phone_num' | 'permissions' | 'services'>
  >;

export const updateUser = (body: UpdateUserRequest) => post<UserRow>(USER_API.update, body);

/** The profile dialog's call (api/user.ts) edits the caller; this one edits a managed user. */
export const updateUserInfoOf = (
  userId: number,
  body: Pick<UpdateInfoBody, 'company_name' | 'company_address' | 'phone_num'>,
) => post<UserInfo>(USER_API.updateInfo, { user_id: userId, ...body });

export interface DockingFilter extends Partial<PageQuery> {
  target_user_id?: number;
  keywords?: string;
  token?: string;
}

export const listDocking = (filter: DockingFilter) =>
  get<Page<DockingInterface>>(DOCKING_API.list, { ...filter });

export const getDocking = (id: number) => get<DockingInterface>(DOCKING_API.get, { id });

export interface AddDockingRequest {
  name: string;
  url: string;
  /** Empty: the server generates one. */
  token?: string;
  target_user_id?: number;
}

export const addDocking = (body: AddDockingRequest) => post<DockingInterface>(DOCKING_API.add, body);

export interface UpdateDockingRequest {
  id: number;
  is_delete?: boolean;
  name?: string;
  url?: string;
  /** Empty keeps the current token. */
  token?: string;
  user_id?: number;
}

export const updateDocking = (body: UpdateDockingRequest) => post<DockingInterface>(DOCKING_API.update, body);

/** ok, HTTP status (null when none came back), latency, and the Chinese error text. */
export type DockingTestResult = z.infer<typeof dockingTestResult>;

export const testDocking = (id: number) => post<DockingTestResult>(DOCKING_API.test, { id });

export interface AuditFilter extends Partial<PageQuery> {
  target_user_id?: number;
  actor_id?: number;
  /** 'YYYY-MM-DD HH:mm:ss' in UTC+8. */
  start?: string;
  end?: string;
}

export const listAudit = (filter: AuditFilter) => get<Page<AuditEntry>>(USER_API.auditLogs, { ...filter });
