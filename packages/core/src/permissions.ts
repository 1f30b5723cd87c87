/**
 * Permission bits and roles of SPEC §6. The permission number of a user is a bitmask;
 * a role is a named mask, so granting a composite role (oemer 127) grants all its bits.
 */

export const PERMISSION = {
  visitor: 1,
  user: 2,
  dealer: 4,
  dataView: 8,
  media: 16,
  attendance: 32,
  apier: 64,
  oemer: 127,
  ssVisitor: 128,
  ssUser: 256,
  ssManager: 512,
  superSaled: 127,
  ssSuperSaled: 1920,
  develop: 268435455,
} as const;

export type RoleName = keyof typeof PERMISSION;

/** User service flags (SPEC §6): weekly report subscriptions. */
export const SERVICE = {
  jwbWeeklyReport: 1 << 17,
  toiletWeeklyReport: 1 << 18,
} as const;

export const SERVICE_LABELS: Record<keyof typeof SERVICE, string> = {
  jwbWeeklyReport: '除臭机周报服务',
  toiletWeeklyReport: '智慧厕所周报服务',
};

/** A role entry as SPEC §3 names it: label, value, name, permission (assigner), pValue. */
export interface RoleEntry {
  label: string;
  value: number;
  name: RoleName;
  /** The role allowed to assign this one. */
  permission: RoleName;
  /** The assigner role's value. */
  pValue: number;
}

const role = (name: RoleName, label: string, assigner: RoleName): RoleEntry => ({
  label,
  value: PERMISSION[name],
  name,
  permission: assigner,
  pValue: PERMISSION[assigner],
});

/** Every role with its Chinese label and who may assign it (SPEC §6 "Assignment"). */
export const ROLES: readonly RoleEntry[] = [
  role('visitor', '游客', 'user'),
  role('user', '用户', 'dealer'),
  role('dealer', '经销商', 'oemer'),
  role('dataView', '数据中心', 'oemer'),
  role('apier', '数据对接', 'oemer'),
  role('oemer', 'OEM', 'superSaled'),
  role('media', '流媒体', 'superSaled'),
  role('attendance', '考勤', 'superSaled'),
  role('ssVisitor', '园区游客', 'ssUser'),
  role('ssUser', '园区用户', 'ssManager'),
  role('ssManager', '园区管理员', 'ssSuperSaled'),
  role('superSaled', '后台管理员(厕所)', 'develop'),
  role('ssSuperSaled', '后台管理员(园区)', 'develop'),
  role('develop', '开发者', 'develop'),
];

/** True when `mask` holds every bit of `need` (the spec's 'has'). */
export function has(mask: number, need: number): boolean {
  return (mask & need) === need;
}

/** True when `mask` lacks at least one bit of `need` (the spec's 'unhas' keeps the element then). */
export function unhas(mask: number, need: number): boolean {
  return !has(mask, need);
}

/** Looks a named permission up in the table; unknown names need everything. */
export function permissionOf(name: string): number {
  return (PERMISSION as Record<string, number>)[name] ?? PERMISSION.develop;
}

/**
 * SPEC §6 gives oemer (OEM) and superSaled (backend manager) the same value, 127, so the
 * mask alone cannot tell them apart. The console decides by who created the account: a 127
 * account whose creator (its parent) holds develop is a backend manager — SPEC §6 has
 * develop assign superSaled — and any other 127 account is an OEM, since superSaled is who
 * assigns oemer. The parent is set at creation and never changes, and only a developer can
 * create accounts below itself, so nobody else can make a backend manager
 * (docs/permissions.md).
 */
export function isBackendManager(mask: number, parentMask: number | null | undefined): boolean {
  return has(mask, PERMISSION.superSaled) && parentMask != null && has(parentMask, PERMISSION.develop);
}

/**
 * Roles the holder of `mask` may assign to others. `backendManager` says whether a 127 mask
 * is a backend manager (isBackendManager); it defaults to the weaker OEM reading. The roles
 * superSaled assigns (oemer, media, attendance) need a backend manager or develop; every
 * other role needs the bits of its assigner, as the spec's 'has' reads.
 */
export function assignableRoles(mask: number, backendManager = false): RoleEntry[] {
  return ROLES.filter((r) =>
    r.permission === 'superSaled'
      ? has(mask, PERMISSION.develop) || (backendManager && has(mask, PERMISSION.superSaled))
      : has(mask, r.pValue),
  );
}

/**
 * Roles fully held by `mask`, most specific (largest) first; labels for tags. When
 * `backendManager` is known, a 127 mask that is not develop is shown as the one role it is
 * (OEM or backend manager), not both.
 */
export function rolesOf(mask: number, backendManager?: boolean): RoleEntry[] {
  const other =
    backendManager === undefined || has(mask, PERMISSION.develop)
      ? null
      : backendManager
        ? 'oemer'
        : 'superSaled';
  return ROLES.filter((r) => has(mask, r.value) && r.name !== other).sort((a, b) => b.value - a.value);
}

/** The Chinese label of the highest role a mask holds, or 游客 when it holds none. */
export function roleLabel(mask: number, backendManager?: boolean): string {
  return rolesOf(mask, backendManager)[0]?.label ?? '无角色';
}

/**
 * Whether an assigner with `callerMask` (a backend manager or not, see isBackendManager)
 * may change a permission number from `before` to `after`: every bit that changes must
 * belong to a role the caller may assign (SPEC §6's table). The table only ever points downward (a role's value never exceeds its assigner's),
 * so nobody can grant rights above their own. Returns the first role that blocks the
 * change, or null when allowed.
 */
export function blockedRole(
  callerMask: number,
  before: number,
  after: number,
  callerIsBackendManager = false,
): RoleEntry | null {
  const changed = before ^ after;
  if (changed === 0) return null;
  let covered = 0;
  for (const r of assignableRoles(callerMask, callerIsBackendManager)) covered |= r.value;
  if ((changed & ~covered) === 0) return null;
  const culprit = ROLES.filter((r) => (r.value & changed & ~covered) !== 0).sort(
    (a, b) => a.value - b.value,
  )[0];
  return culprit ?? ROLES.find((r) => r.name === 'develop')!;
}

/**
 * The roles below `name` in the assignment chain: those it assigns, and theirs in turn
 * (dealer → user → visitor). A role that assigns itself (develop) is not its own child.
 */
export function chainBelow(name: RoleName): RoleEntry[] {
  const out: RoleEntry[] = [];
  const seen = new Set<RoleName>([name]);
  const queue: RoleName[] = [name];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const r of ROLES) {
      if (r.permission !== parent || seen.has(r.name)) continue;
      seen.add(r.name);
      out.push(r);
      queue.push(r.name);
    }
  }
  return out;
}

/**
 * The permission number an assignment really gives: every role newly granted brings the lower
 * roles of its chain that the caller may assign (a dealer needs 用户 to create customers and
 * 游客 to see devices; without them it gets 无权访问 on every device list). The form ticks them
 * too; the server applies it so an API client cannot make a dealer that sees nothing.
 */
export function withLowerRoles(callerMask: number, before: number, after: number, callerBm = false): number {
  const assignable = new Set(assignableRoles(callerMask, callerBm).map((r) => r.name));
  let out = after;
  for (const r of ROLES) {
    if (!assignable.has(r.name) || !has(after, r.value) || has(before, r.value)) continue;
    for (const lower of chainBelow(r.name)) if (assignable.has(lower.name)) out |= lower.value;
  }
  return out;
}

/** A manager is whoever may assign at least one role: it administers the users it creates. */
export function isManager(mask: number): boolean {
  return assignableRoles(mask).length > 0;
}

/** What a screen or an API route needs: permission bits, or being a manager. */
export type Need = number | 'manager';

export function canAccess(mask: number, need: Need): boolean {
  return need === 'manager' ? isManager(mask) : has(mask, need);
}
