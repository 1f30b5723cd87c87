import { AUDIT_ACTIONS, FIELD_LABELS, rolesOf } from '@se/core';
import { SERVICE_OPTIONS } from './role-picker.ts';

/** One changed field of an audit entry, ready to show. */
export interface Change {
  field: string;
  /** Chinese field name (core FIELD_LABELS), or the field itself when unnamed. */
  label: string;
  /** "旧 → 新", or only the new value when the entry records a creation; long values cut. */
  text: string;
  /** The same, uncut, for a tooltip. */
  full: string;
}

/** Longer values are cut here; the full text goes into the cell's tooltip. */
export const VALUE_MAX = 40;

// The server stores changed fields as JSON objects whose key order is the database's;
// a fixed order puts the same field in the same place in every row.
const FIELD_ORDER = [
  'user_name',
  'email',
  'pending_email',
  'phone_num',
  'permissions',
  'services',
  'company_name',
  'company_address',
  'name',
  'url',
  'token',
  'user_id',
  'is_delete',
];
const rank = (field: string) => {
  const i = FIELD_ORDER.indexOf(field);
  return i === -1 ? FIELD_ORDER.length : i;
};

/** How many role names a permission change lists before saying 等N个. */
const NAMES_MAX = 4;

const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

export const actionLabel = (action: string): string => AUDIT_ACTIONS[action] ?? action;

function listNames(names: string[]): string {
  if (names.length <= NAMES_MAX) return names.join('、');
  return `${names.slice(0, NAMES_MAX).join('、')}等${names.length}个`;
}

function plain(value: unknown, max: number): string {
  if (value === null || value === undefined || value === '') return '空';
  if (typeof value === 'boolean') return value ? '是' : '否';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const roleNames = (mask: number) => rolesOf(mask).map((r) => r.label);

// Which roles a change granted and took away says more than two numbers do.
function roleDelta(before: number, after: number): string {
  const had = new Set(roleNames(before));
  const has = roleNames(after);
  const added = has.filter((l) => !had.has(l));
  const removed = [...had].filter((l) => !has.includes(l));
  const parts = [];
  if (added.length) parts.push(`+${listNames(added)}`);
  if (removed.length) parts.push(`−${listNames(removed)}`);
  return parts.join('，');
}

function serviceNames(services: number): string[] {
  return SERVICE_OPTIONS.filter((s) => (services & s.bit) === s.bit).map((s) => s.label);
}

function serviceDelta(before: number, after: number): string {
  const had = serviceNames(before);
  const has = serviceNames(after);
  const parts = [];
  const added = has.filter((l) => !had.includes(l));
  const removed = had.filter((l) => !has.includes(l));
  if (added.length) parts.push(`+${added.join('、')}`);
  if (removed.length) parts.push(`−${removed.join('、')}`);
  return parts.join('，');
}

function describe(field: string, from: unknown, to: unknown, created: boolean, max: number): string {
  const bothNumbers = typeof to === 'number' && (created || typeof from === 'number');
  if (field === 'permissions' && bothNumbers) {
    if (created) {
      const names = roleNames(to);
      return `${to}（${names.length ? listNames(names) : '无角色'}）`;
    }
    const delta = roleDelta(from as number, to);
    return `${from} → ${to}${delta ? `（${delta}）` : ''}`;
  }
  if (field === 'services' && bothNumbers) {
    if (created) return `${to}`;
    const delta = serviceDelta(from as number, to);
    return `${from} → ${to}${delta ? `（${delta}）` : ''}`;
  }
  return created ? plain(to, max) : `${plain(from, max)} → ${plain(to, max)}`;
}

/**
 * The fields an audit entry changed, before → after. The server records only changed
 * fields; a creation has no `before` and shows the values it was created with.
 */
export function describeChanges(before: unknown, after: unknown): Change[] {
  const b = asRecord(before);
  const a = asRecord(after);
  const created = b === null;
  const fields = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].sort(
    (x, y) => rank(x) - rank(y),
  );
  return fields.map((field) => ({
    field,
    label: FIELD_LABELS[field] ?? field,
    text: describe(field, b?.[field], a?.[field], created, VALUE_MAX),
    full: describe(field, b?.[field], a?.[field], created, Infinity),
  }));
}
