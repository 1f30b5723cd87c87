import { AREAS, PERMISSION } from '@se/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PATH, DEFAULT_ROUTE_NAME, pageTitle, routeByName } from './navigation/names.ts';
import { ROUTES } from './routes.tsx';

// SPEC §2, transcribed: every path, its tier, and the routes it marks "kept alive".
const SPEC_PUBLIC = [
  '/eternal-page',
  '/mini-program-login',
  '/login',
  '/register',
  '/find_password',
  '/add-comment',
  '/agreement',
];
// The protected routes; a trailing * marks the ones SPEC §2 keeps alive.
const SPEC_AUTH_MARKED = [
  '/users*',
  '/equipments*',
  '/evaluates*',
  '/download',
  '/notify',
  '/notify-object',
  '/notify-formula',
  '/messages',
  '/smart-industrial',
  '/smart-org',
  '/ss-building',
  '/ss-room',
  '/ss-data-center',
  '/ci-organization',
  '/ci-employee',
  '/ci-device',
  '/ci-scheme',
  '/ci-record',
  '/advisement-players*',
  '/pictures*',
  '/texts*',
  '/videos*',
  '/smart-toilet*',
  '/st-gateway*',
  '/st-data-center*',
  '/comment',
  '/data-center2',
  '/data-center',
  '/display-center',
  '/gateways*',
  '/electric-meters',
  '/water-meters',
  '/paper-machines',
  '/equipment-type*',
  '/fault-type*',
  '/add-maintenance-record',
  '/maintenance-records*',
  '/add-express-order',
  '/test',
];
const SPEC_AUTH = SPEC_AUTH_MARKED.map((p) => p.replace(/\*$/, ''));
const SPEC_KEPT_ALIVE = SPEC_AUTH_MARKED.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
// "one shared screen" in SPEC §2.
const SPEC_SHARED_SCREENS = [
  ['/notify', '/notify-object', '/notify-formula'],
  ['/smart-org', '/ss-building', '/ss-room', '/ss-data-center'],
  ['/ci-organization', '/ci-employee', '/ci-device', '/ci-scheme', '/ci-record'],
  ['/smart-toilet', '/st-gateway', '/st-data-center'],
];

const paths = ROUTES.map((r) => r.path);
const route = (path: string) => ROUTES.find((r) => r.path === path)!;

describe('route table', () => {
  it('holds every SPEC §2 route exactly once, and nothing else', () => {
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...SPEC_PUBLIC, ...SPEC_AUTH].sort());
  });

  it('marks the public routes public and every other route as needing a login', () => {
    for (const r of ROUTES) expect(r.access, r.path).toBe(SPEC_PUBLIC.includes(r.path) ? 'public' : 'auth');
  });

  it('keeps alive exactly the routes SPEC §2 marks kept alive', () => {
    expect(ROUTES.filter((r) => r.keepAlive).map((r) => r.path)).toEqual(SPEC_KEPT_ALIVE);
  });

  it('gives each route a unique PascalCase name and a Chinese title', () => {
    const names = ROUTES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of ROUTES) {
      expect(r.name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(r.title).toMatch(/\p{Script=Han}/u);
    }
    expect(route('/login').name).toBe('Login');
    expect(route('/users').title).toBe('用户管理');
    expect(route('/equipments').title).toBe('除臭机管理');
    expect(route('/test').title).toBe('测试页');
  });

  it('names /smart-toilet Toilets, the default route name after a reset', () => {
    expect(DEFAULT_ROUTE_NAME).toBe('Toilets');
    expect(routeByName(DEFAULT_ROUTE_NAME)?.path).toBe('/smart-toilet');
    expect(DEFAULT_PATH).toBe('/st-gateway');
  });

  it('lets the routes of one shared screen share one page component, and only those', () => {
    const shared = new Set(SPEC_SHARED_SCREENS.flat());
    for (const group of SPEC_SHARED_SCREENS) {
      const screens = new Set(group.map((p) => route(p).screen));
      expect(screens.size, group.join(' ')).toBe(1);
    }
    const others = ROUTES.filter((r) => !shared.has(r.path)).map((r) => r.screen.key);
    const groupKeys = SPEC_SHARED_SCREENS.map((g) => route(g[0]!).screen.key);
    expect(new Set([...others, ...groupKeys]).size).toBe(others.length + groupKeys.length);
  });

  it('takes every protected route’s permission from its area, and puts /test behind develop', () => {
    for (const r of ROUTES.filter((x) => x.access === 'auth')) {
      expect(r.area, r.path).not.toBeNull();
      expect(r.permission).toBe(AREAS[r.area!].permission);
    }
    expect(route('/test').permission).toBe(PERMISSION.develop);
    for (const r of ROUTES.filter((x) => x.access === 'public')) expect(r.permission).toBe(0);
  });

  it('builds the document title from the route title', () => {
    expect(pageTitle('用户登录')).toBe('用户登录 - 智慧环境管理系统');
    expect(pageTitle(undefined)).toBe('智慧环境管理系统');
  });
});
