import { PERMISSION } from '@se/core';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../routes.tsx';
import { menuGroups } from './menu.ts';

const pathsIn = (groups: ReturnType<typeof menuGroups>) => groups.flatMap((g) => g.routes.map((r) => r.path));

describe('side menu', () => {
  it('groups protected routes under their area labels and leaves public pages out', () => {
    const groups = menuGroups(PERMISSION.develop);
    expect(groups.find((g) => g.area === 'smartToilet')?.label).toBe('智慧厕所');
    expect(pathsIn(groups)).not.toContain('/login');
    expect(pathsIn(groups).sort()).toEqual(
      ROUTES.filter((r) => r.access === 'auth')
        .map((r) => r.path)
        .sort(),
    );
  });

  it('shows only what the permission allows', () => {
    const visitor = pathsIn(menuGroups(PERMISSION.visitor));
    expect(visitor).toContain('/st-gateway');
    expect(visitor).not.toContain('/test');
    expect(visitor).not.toContain('/smart-org');
    expect(visitor).not.toContain('/data-center');
    expect(pathsIn(menuGroups(PERMISSION.visitor | PERMISSION.dataView))).toContain('/data-center');
  });

  it('shows nothing to a permission of 0 but everything while the permission is unknown', () => {
    expect(menuGroups(0)).toEqual([]);
    expect(pathsIn(menuGroups(null))).toHaveLength(ROUTES.filter((r) => r.access === 'auth').length);
  });
});
