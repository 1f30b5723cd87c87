import { describe, expect, it } from 'vitest';
import {
  PERMISSION,
  ROLES,
  SERVICE,
  assignableRoles,
  blockedRole,
  canAccess,
  isBackendManager,
  isManager,
  has,
  permissionOf,
  rolesOf,
  unhas,
} from './permissions.ts';

describe('permission values (SPEC §6)', () => {
  it.each([
    ['visitor', 1],
    ['user', 2],
    ['dealer', 4],
    ['dataView', 8],
    ['media', 16],
    ['attendance', 32],
    ['apier', 64],
    ['oemer', 127],
    ['ssVisitor', 128],
    ['ssUser', 256],
    ['ssManager', 512],
    ['superSaled', 127],
    ['ssSuperSaled', 1920],
    ['develop', 268435455],
  ] as const)('%s is %i', (name, value) => {
    expect(PERMISSION[name]).toBe(value);
    expect(permissionOf(name)).toBe(value);
  });

  it('service flags are 1<<17 and 1<<18', () => {
    expect(SERVICE.jwbWeeklyReport).toBe(131072);
    expect(SERVICE.toiletWeeklyReport).toBe(262144);
  });

  it('an unknown permission name needs everything', () => {
    expect(permissionOf('nope')).toBe(PERMISSION.develop);
  });
});

describe('has / unhas', () => {
  it('has needs every bit', () => {
    expect(has(PERMISSION.oemer, PERMISSION.dealer)).toBe(true);
    expect(has(PERMISSION.dealer, PERMISSION.oemer)).toBe(false);
    expect(has(3, 3)).toBe(true);
    expect(has(2, 3)).toBe(false);
  });
  it('unhas is the opposite', () => {
    expect(unhas(PERMISSION.dealer, PERMISSION.oemer)).toBe(true);
    expect(unhas(PERMISSION.develop, PERMISSION.ssSuperSaled)).toBe(false);
  });
});

describe('assignment table (SPEC §6)', () => {
  const assigner = Object.fromEntries(ROLES.map((r) => [r.name, r.permission]));
  it.each([
    ['visitor', 'user'],
    ['user', 'dealer'],
    ['dealer', 'oemer'],
    ['dataView', 'oemer'],
    ['apier', 'oemer'],
    ['oemer', 'superSaled'],
    ['media', 'superSaled'],
    ['attendance', 'superSaled'],
    ['ssVisitor', 'ssUser'],
    ['ssUser', 'ssManager'],
    ['ssManager', 'ssSuperSaled'],
    ['superSaled', 'develop'],
    ['ssSuperSaled', 'develop'],
    ['develop', 'develop'],
  ])('%s is assigned by %s', (role, by) => {
    expect(assigner[role]).toBe(by);
    const entry = ROLES.find((r) => r.name === role)!;
    expect(entry.pValue).toBe(PERMISSION[by as keyof typeof PERMISSION]);
    expect(entry.value).toBe(PERMISSION[role as keyof typeof PERMISSION]);
  });

  it('labels every role in Chinese', () => {
    expect(ROLES.map((r) => r.label)).toEqual([
      '游客',
      '用户',
      '经销商',
      '数据中心',
      '数据对接',
      'OEM',
      '流媒体',
      '考勤',
      '园区游客',
      '园区用户',
      '园区管理员',
      '后台管理员(厕所)',
      '后台管理员(园区)',
      '开发者',
    ]);
  });

  it('a dealer may assign only user and visitor', () => {
    expect(assignableRoles(PERMISSION.dealer | PERMISSION.user).map((r) => r.name)).toEqual([
      'visitor',
      'user',
    ]);
  });

  it('never points upward: a role is worth no more than its assigner', () => {
    for (const r of ROLES) expect(r.value, r.name).toBeLessThanOrEqual(r.pValue);
  });

  it('a dealer can never mint an OEM', () => {
    const dealer = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor;
    expect(blockedRole(dealer, PERMISSION.visitor, PERMISSION.oemer)?.name).toBe('dealer');
    expect(blockedRole(dealer, PERMISSION.visitor, PERMISSION.visitor | PERMISSION.user)).toBeNull();
  });

  it('nobody but develop grants develop', () => {
    const superSaled = PERMISSION.superSaled | PERMISSION.ssSuperSaled;
    expect(blockedRole(superSaled, 0, PERMISSION.develop)).not.toBeNull();
    expect(blockedRole(PERMISSION.develop, 0, PERMISSION.develop)).toBeNull();
  });

  it('managers are those who may assign something', () => {
    expect(isManager(PERMISSION.visitor)).toBe(false);
    expect(isManager(PERMISSION.user)).toBe(true);
    expect(isManager(PERMISSION.ssManager)).toBe(true);
    expect(canAccess(PERMISSION.ssManager, 'manager')).toBe(true);
    expect(canAccess(PERMISSION.dataView, 'manager')).toBe(false);
    expect(canAccess(PERMISSION.oemer, PERMISSION.dealer)).toBe(true);
  });

  it('rolesOf lists the roles a mask holds, largest first', () => {
    expect(rolesOf(PERMISSION.dealer | PERMISSION.user).map((r) => r.name)).toEqual(['dealer', 'user']);
  });
});

describe('oemer and superSaled share the value 127 (docs/permissions.md)', () => {
  const P = PERMISSION;
  const names = (mask: number, backendManager?: boolean) =>
    assignableRoles(mask, backendManager).map((r) => r.name);

  it('a 127 account is a backend manager only when a developer created it', () => {
    expect(isBackendManager(P.superSaled, P.develop)).toBe(true);
    expect(isBackendManager(P.oemer, P.superSaled)).toBe(false);
    expect(isBackendManager(P.oemer, P.oemer | P.ssSuperSaled)).toBe(false);
    expect(isBackendManager(P.oemer, null)).toBe(false);
    // Created by a developer but without the 127 bits: not a backend manager.
    expect(isBackendManager(P.dealer, P.develop)).toBe(false);
  });

  it('an OEM assigns dealer, data centre and data integration (and below), not OEM, media or attendance', () => {
    expect(names(P.oemer)).toEqual(['visitor', 'user', 'dealer', 'dataView', 'apier']);
    expect(names(P.oemer, false)).toEqual(['visitor', 'user', 'dealer', 'dataView', 'apier']);
    for (const role of [P.oemer, P.media, P.attendance]) {
      expect(blockedRole(P.oemer, 0, role)).not.toBeNull();
      expect(blockedRole(P.oemer, P.dealer, P.dealer | role)).not.toBeNull();
    }
    expect(blockedRole(P.oemer, 0, P.dealer | P.user | P.visitor)).toBeNull();
  });

  it('a backend manager also assigns OEM, media and attendance', () => {
    expect(names(P.superSaled, true)).toEqual([
      'visitor',
      'user',
      'dealer',
      'dataView',
      'apier',
      'oemer',
      'media',
      'attendance',
    ]);
    for (const role of [P.oemer, P.media, P.attendance]) {
      expect(blockedRole(P.superSaled, 0, role, true)).toBeNull();
    }
    // Still nothing of the campus side or develop.
    expect(blockedRole(P.superSaled, 0, P.ssManager, true)).not.toBeNull();
    expect(blockedRole(P.superSaled, 0, P.develop, true)).not.toBeNull();
  });

  it('develop assigns every role whatever created it', () => {
    expect(names(P.develop)).toEqual(ROLES.map((r) => r.name));
    expect(blockedRole(P.develop, 0, P.superSaled)).toBeNull();
    expect(blockedRole(P.develop, 0, P.ssSuperSaled)).toBeNull();
  });

  it('labels a 127 account by what it is when that is known', () => {
    expect(rolesOf(P.oemer, false)[0]!.name).toBe('oemer');
    expect(rolesOf(P.oemer, false).map((r) => r.name)).not.toContain('superSaled');
    expect(rolesOf(P.superSaled, true)[0]!.name).toBe('superSaled');
    expect(rolesOf(P.superSaled, true).map((r) => r.name)).not.toContain('oemer');
    expect(rolesOf(P.develop, false)).toHaveLength(ROLES.length);
  });
});
