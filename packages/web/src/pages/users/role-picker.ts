import {
  PERMISSION,
  ROLES,
  SERVICE,
  SERVICE_LABELS,
  assignableRoles,
  chainBelow,
  has,
  isManager,
  rolesOf,
  type RoleEntry,
  type RoleName,
  type UserRow,
} from '@se/core';

export { chainBelow };

/** One role checkbox of the add/edit dialogs. */
export interface RoleOption {
  role: RoleEntry;
  checked: boolean;
  /** Not assignable by the caller, or the caller's own row. */
  disabled: boolean;
}

/**
 * The bits the caller may set or clear: the union of the roles it may assign.
 * `callerBm`: the caller's 127 bits are a backend manager's, not an OEM's (get-permission's
 * backend_manager); the same trailing flag appears on every helper below.
 */
export function assignableBits(callerMask: number, callerBm = false): number {
  let bits = 0;
  for (const r of assignableRoles(callerMask, callerBm)) bits |= r.value;
  return bits;
}

/**
 * Which of the two 127 roles the edited account holds or would get, when known: a new
 * account's creator is the caller, so it is a backend manager exactly when a developer adds
 * it; an existing 127 account says so in its row (backend_manager).
 */
export function targetIsBackendManager(callerMask: number, row: UserRow | null): boolean | undefined {
  if (!row) return has(callerMask, PERMISSION.develop);
  return has(row.permissions, PERMISSION.superSaled) ? row.backend_manager : undefined;
}

/**
 * Every role in SPEC §6 order, so the dialog always shows the whole ladder; only the roles
 * the caller may assign can be changed, and nothing can on the caller's own row (the server
 * refuses both anyway, and a disabled box says so before the save does). OEM and
 * 后台管理员(厕所) share the value 127: when `targetBm` says which one the account is (or
 * would be), only that box ticks and the other is disabled.
 */
export function roleOptions(
  callerMask: number,
  mask: number,
  self: boolean,
  callerBm = false,
  targetBm?: boolean,
): RoleOption[] {
  const assignable = new Set(assignableRoles(callerMask, callerBm).map((r) => r.name));
  const other =
    targetBm === undefined || has(mask, PERMISSION.develop) ? null : targetBm ? 'oemer' : 'superSaled';
  return ROLES.map((role) => ({
    role,
    checked: (mask & role.value) === role.value && role.name !== other,
    disabled: self || !assignable.has(role.name) || role.name === other,
  }));
}

/**
 * The permission number after the caller ticks or unticks `name`. Ticking also ticks the
 * lower roles of its chain that the caller may assign: a dealer needs the 用户 bit to
 * create customers and the 游客 bit to see devices, and forgetting them is the usual
 * mistake. Unticking clears only that role's bits; the lower roles stay for the user to
 * untick. Bits the caller may not assign never change.
 */
export function toggleRole(
  callerMask: number,
  mask: number,
  name: RoleName,
  checked: boolean,
  callerBm = false,
): number {
  const assignable = new Set(assignableRoles(callerMask, callerBm).map((r) => r.name));
  const role = ROLES.find((r) => r.name === name);
  if (!role || !assignable.has(name)) return mask;
  if (!checked) return mask & ~role.value;
  let add = role.value;
  for (const lower of chainBelow(name)) if (assignable.has(lower.name)) add |= lower.value;
  return mask | add;
}

/**
 * What the save sends: the edited bits where the caller may assign, the stored bits
 * everywhere else, so a role the caller cannot see the point of is never lost by a save.
 */
export function permissionsToSave(
  callerMask: number,
  before: number,
  edited: number,
  callerBm = false,
): number {
  const allowed = assignableBits(callerMask, callerBm);
  return (before & ~allowed) | (edited & allowed);
}

/** The weekly-report flags (SPEC §6), the only service bits the console changes. */
export const SERVICE_OPTIONS = (Object.keys(SERVICE) as (keyof typeof SERVICE)[]).map((key) => ({
  key,
  bit: SERVICE[key],
  label: SERVICE_LABELS[key],
}));

const SERVICE_BITS = SERVICE_OPTIONS.reduce((bits, s) => bits | s.bit, 0);

/** Services are a manager's decision about someone else; a user never grants them to itself. */
export const canEditServices = (callerMask: number, self: boolean): boolean => !self && isManager(callerMask);

/** Sets or clears one weekly-report flag; every other service bit is kept as stored. */
export function toggleService(services: number, bit: number, checked: boolean): number {
  if ((bit & SERVICE_BITS) !== bit) return services;
  return checked ? services | bit : services & ~bit;
}

/** Labels of the weekly-report flags a services number holds, for the list's 服务 tags. */
export const serviceLabels = (services: number): string[] =>
  SERVICE_OPTIONS.filter((s) => (services & s.bit) === s.bit).map((s) => s.label);

/** How many role tags a row shows before folding the rest into "+N" (a developer holds all 14). */
export const ROLE_TAGS_SHOWN = 3;

/**
 * The role tags of a row, most specific first; `rest` goes behind a "+N" tag. `bm` (the
 * row's backend_manager) names a 127 account as OEM or 后台管理员(厕所), not both.
 */
export function roleTags(
  mask: number,
  shown = ROLE_TAGS_SHOWN,
  bm?: boolean,
): { shown: string[]; rest: string[] } {
  const labels = rolesOf(mask, bm).map((r) => r.label);
  return { shown: labels.slice(0, shown), rest: labels.slice(shown) };
}

/**
 * The role a filter option stands for. Options are keyed by name, not value, because
 * OEM and 后台管理员(厕所) share the value 127 and a Select needs distinct values.
 */
export const roleByName = (name: string | undefined): RoleEntry | undefined =>
  ROLES.find((r) => r.name === name);
