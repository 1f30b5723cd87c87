import type { PERMISSION } from '@se/core';
import { has, permissionOf, unhas } from '@se/core';
import type { ReactNode } from 'react';
import { useSession } from '../session/store.ts';

/** A permission as SPEC §6 names it ('develop', 'apier'…) or as its bits. */
export type PermissionNeed = keyof typeof PERMISSION | number;

const bits = (need: PermissionNeed) => (typeof need === 'number' ? need : permissionOf(need));

/** SPEC §6 'has': whether the signed-in user's mask holds every bit of `need`. */
export function useHas(need: PermissionNeed): boolean {
  return has(
    useSession((s) => s.permission),
    bits(need),
  );
}

/**
 * SPEC §6's element guards. `<Has need="apier">` renders its children only when the user's
 * mask includes all bits of the permission ('has'); `<Unhas need="develop">` removes them
 * when the user has it ('unhas'). The browser only hides: the server checks every call.
 */
export function Has({ need, children }: { need: PermissionNeed; children: ReactNode }) {
  return useHas(need) ? children : null;
}

export function Unhas({ need, children }: { need: PermissionNeed; children: ReactNode }) {
  return unhas(
    useSession((s) => s.permission),
    bits(need),
  )
    ? children
    : null;
}
