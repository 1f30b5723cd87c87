import { PERMISSION, SERVICE, type UserRow } from '@se/core';
import { describe, expect, it } from 'vitest';
import {
  canEditServices,
  chainBelow,
  permissionsToSave,
  roleByName,
  roleOptions,
  roleTags,
  serviceLabels,
  targetIsBackendManager,
  toggleRole,
  toggleService,
} from './role-picker.ts';

const P = PERMISSION;
const admin = P.superSaled; // 后台管理员(厕所), 127: a backend manager (created by a developer)
const oem = P.oemer; // the same 127, created by a backend manager: an OEM
const dealer = P.dealer | P.user | P.visitor; // a dealer as the console creates one
const campusAdmin = P.ssSuperSaled;

/** Enabled boxes; a 127 caller is the backend manager `admin` unless `bm` says otherwise. */
const enabledLabels = (caller: number, mask = 0, self = false, bm = caller === admin) =>
  roleOptions(caller, mask, self, bm)
    .filter((o) => !o.disabled)
    .map((o) => o.role.label);

describe('role checkboxes', () => {
  it('lists every role, in the spec order, whoever edits', () => {
    expect(roleOptions(dealer, 0, false)).toHaveLength(14);
    expect(roleOptions(dealer, 0, false)[0]?.role.label).toBe('游客');
  });

  it('enables only 用户 and 游客 for a dealer', () => {
    expect(enabledLabels(dealer)).toEqual(['游客', '用户']);
  });

  it('does not let a dealer without the 用户 bit hand out 游客', () => {
    expect(enabledLabels(P.dealer)).toEqual(['用户']);
  });

  it('enables the toilet-side roles below an admin, not the campus or developer ones', () => {
    expect(enabledLabels(admin)).toEqual([
      '游客',
      '用户',
      '经销商',
      '数据中心',
      '数据对接',
      'OEM',
      '流媒体',
      '考勤',
    ]);
  });

  it('enables only dealer, data centre and data integration (and below) for an OEM', () => {
    expect(enabledLabels(oem, 0, false, false)).toEqual(['游客', '用户', '经销商', '数据中心', '数据对接']);
  });

  it('ticks only the 127 role the account is, and disables the other one', () => {
    const options = (targetBm: boolean | undefined) =>
      roleOptions(P.develop, 127, false, false, targetBm).filter(
        (o) => o.role.name === 'oemer' || o.role.name === 'superSaled',
      );
    const state = (targetBm: boolean | undefined) =>
      options(targetBm).map((o) => `${o.role.name}:${o.checked ? 'on' : 'off'}:${o.disabled ? 'x' : ''}`);
    expect(state(true)).toEqual(['oemer:off:x', 'superSaled:on:']);
    expect(state(false)).toEqual(['oemer:on:', 'superSaled:off:x']);
    // Not known: both follow the bits, as before.
    expect(state(undefined)).toEqual(['oemer:on:', 'superSaled:on:']);
  });

  it('knows which 127 role an account being added or edited would be', () => {
    const row = (permissions: number, backend_manager: boolean) =>
      ({ permissions, backend_manager }) as UserRow;
    // Added by a developer: a backend manager; by anyone else: an OEM.
    expect(targetIsBackendManager(P.develop, null)).toBe(true);
    expect(targetIsBackendManager(admin, null)).toBe(false);
    expect(targetIsBackendManager(P.develop, row(127, true))).toBe(true);
    expect(targetIsBackendManager(admin, row(127, false))).toBe(false);
    expect(targetIsBackendManager(admin, row(dealer, false))).toBeUndefined();
  });

  it('enables the campus ladder for a campus admin', () => {
    expect(enabledLabels(campusAdmin)).toEqual(['园区游客', '园区用户', '园区管理员']);
  });

  it('disables everything on the caller’s own row', () => {
    expect(enabledLabels(P.develop, P.develop, true)).toEqual([]);
  });

  it('ticks a box when every bit of its role is held, so composite roles follow their parts', () => {
    const checked = (mask: number) =>
      roleOptions(admin, mask, false)
        .filter((o) => o.checked)
        .map((o) => o.role.name);
    expect(checked(P.user | P.visitor)).toEqual(['visitor', 'user']);
    expect(checked(127)).toContain('oemer');
    expect(checked(126)).not.toContain('oemer');
  });
});

describe('ticking a role', () => {
  it('also ticks the lower roles of its chain: an admin ticking 经销商 gets 用户 and 游客', () => {
    expect(toggleRole(admin, 0, 'dealer', true)).toBe(P.dealer | P.user | P.visitor);
  });

  it('walks the campus chain the same way', () => {
    expect(toggleRole(campusAdmin, 0, 'ssManager', true)).toBe(P.ssManager | P.ssUser | P.ssVisitor);
  });

  it('skips lower roles the caller may not assign', () => {
    expect(toggleRole(P.dealer, 0, 'user', true)).toBe(P.user);
  });

  it('leaves lower roles alone when a role is unticked, so the user unticks them one by one', () => {
    expect(toggleRole(admin, dealer, 'dealer', false)).toBe(P.user | P.visitor);
    expect(toggleRole(admin, dealer, 'user', false)).toBe(P.dealer | P.visitor);
  });

  it('ignores roles the caller may not assign', () => {
    expect(toggleRole(admin, 0, 'ssManager', true)).toBe(0);
    expect(toggleRole(dealer, P.dealer, 'dealer', false)).toBe(P.dealer);
    // Same value as OEM, but only a developer assigns 后台管理员(厕所).
    expect(toggleRole(admin, 0, 'superSaled', true)).toBe(0);
  });

  it('never touches bits outside the caller’s roles', () => {
    const campusVisitor = P.ssVisitor;
    expect(toggleRole(admin, campusVisitor, 'dealer', true)).toBe(campusVisitor | dealer);
    expect(toggleRole(admin, campusVisitor | 127, 'oemer', false, true)).toBe(campusVisitor);
    // An OEM cannot take another OEM's role away, nor grant one.
    expect(toggleRole(oem, campusVisitor | 127, 'oemer', false)).toBe(campusVisitor | 127);
    expect(toggleRole(oem, dealer, 'oemer', true)).toBe(dealer);
    expect(toggleRole(oem, dealer, 'media', true)).toBe(dealer);
  });

  it('knows each role’s chain, and a developer does not count as its own child', () => {
    expect(chainBelow('dealer').map((r) => r.name)).toEqual(['user', 'visitor']);
    expect(chainBelow('visitor')).toEqual([]);
    const belowDevelop = chainBelow('develop').map((r) => r.name);
    expect(belowDevelop).toHaveLength(13);
    expect(belowDevelop).not.toContain('develop');
  });
});

describe('saving roles', () => {
  it('keeps the stored bits of roles the caller cannot assign', () => {
    const stored = P.ssVisitor | P.visitor;
    // The edit lost the campus bit somehow; the save puts it back.
    expect(permissionsToSave(admin, stored, dealer)).toBe(P.ssVisitor | dealer);
  });

  it('drops bits the caller cannot assign that the edit added', () => {
    expect(permissionsToSave(dealer, P.visitor, P.visitor | P.user | P.ssManager)).toBe(P.visitor | P.user);
  });

  it('sends the stored number unchanged when nothing assignable changed', () => {
    expect(permissionsToSave(dealer, P.dataView | P.user, P.dataView | P.user)).toBe(P.dataView | P.user);
  });
});

describe('services', () => {
  it('are set by a manager for someone else only', () => {
    expect(canEditServices(admin, false)).toBe(true);
    expect(canEditServices(admin, true)).toBe(false);
    expect(canEditServices(P.visitor, false)).toBe(false);
  });

  it('change one weekly-report flag and keep every other bit', () => {
    const stored = 1; // SPEC §3 default services value
    const on = toggleService(stored, SERVICE.jwbWeeklyReport, true);
    expect(on).toBe(1 | SERVICE.jwbWeeklyReport);
    expect(toggleService(on, SERVICE.jwbWeeklyReport, false)).toBe(1);
    expect(toggleService(stored, 1 << 3, true)).toBe(stored);
  });

  it('are labelled with the spec texts', () => {
    expect(serviceLabels(SERVICE.jwbWeeklyReport | SERVICE.toiletWeeklyReport | 1)).toEqual([
      '除臭机周报服务',
      '智慧厕所周报服务',
    ]);
    expect(serviceLabels(1)).toEqual([]);
  });
});

describe('role tags', () => {
  it('show the most specific role first', () => {
    expect(roleTags(dealer)).toEqual({ shown: ['经销商', '用户', '游客'], rest: [] });
  });

  it('name a 127 account as the one role it is', () => {
    expect(roleTags(127, 2, false).shown).toEqual(['OEM', '数据对接']);
    expect(roleTags(127, 2, true).shown).toEqual(['后台管理员(厕所)', '数据对接']);
  });

  it('fold the rest of a long list behind +N', () => {
    const { shown, rest } = roleTags(P.develop);
    expect(shown[0]).toBe('开发者');
    expect(shown).toHaveLength(3);
    expect(shown.length + rest.length).toBe(14);
  });

  it('are empty for a user without roles (the list shows 无角色)', () => {
    expect(roleTags(0)).toEqual({ shown: [], rest: [] });
  });

  it('filter by role name, since OEM and 后台管理员(厕所) share a value', () => {
    expect(roleByName('oemer')?.label).toBe('OEM');
    expect(roleByName('superSaled')?.value).toBe(127);
    expect(roleByName(undefined)).toBeUndefined();
  });
});
