import { PERMISSION } from '@se/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../routes.tsx';
import { MENU, MENU_ALIASES, dataCenterPath, entryKeyOf, menuGroups, sectionKeyOf } from './menu.ts';
import { storeDcVersion } from '../session/storage.ts';

const keysIn = (groups: ReturnType<typeof menuGroups>) => groups.flatMap((g) => g.entries.map((e) => e.key));
const protectedPaths = ROUTES.filter((r) => r.access === 'auth').map((r) => r.path);

describe('side menu', () => {
  it('groups the screens by what people do, in this order', () => {
    expect(menuGroups(PERMISSION.develop).map((g) => g.label)).toEqual([
      '智慧厕所',
      '设备',
      '智慧校园',
      '智慧工业',
      '考勤',
      '流媒体',
      '维修服务',
      '消息提醒',
      '系统',
    ]);
  });

  it('lists every protected route once: as an entry, a version of one, or an alias of one', () => {
    const listed = MENU.flatMap((s) => s.entries.flatMap((e) => e.paths));
    expect(new Set(listed).size).toBe(listed.length);
    for (const alias of Object.keys(MENU_ALIASES)) expect(listed).not.toContain(alias);
    expect([...listed, ...Object.keys(MENU_ALIASES)].sort()).toEqual([...protectedPaths].sort());
    for (const path of protectedPaths) expect(entryKeyOf(path), path).toBeDefined();
    expect(listed).not.toContain('/login');
  });

  it('names no screen twice: one gateway list, one data-centre entry, no repeated titles', () => {
    const entries = MENU.flatMap((s) => s.entries);
    const titles = entries.map((e) => e.title);
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles).not.toContain('智慧网关');
    expect(titles.filter((t) => t.includes('网关'))).toEqual(['网关管理']);
    expect(titles.filter((t) => t.includes('数据中心') && !t.includes('园区'))).toEqual(['数据中心']);
    // The routes the menu does not list still lead to the entry that covers them.
    expect(entryKeyOf('/st-gateway')).toBe('/gateways');
    expect(entryKeyOf('/display-center')).toBe('/data-center');
    expect(entryKeyOf('/data-center2')).toBe('/data-center');
    expect(sectionKeyOf('/st-data-center')).toBe('toilets');
  });

  it('gives every entry a short Chinese tooltip saying what it is for', () => {
    for (const e of MENU.flatMap((s) => s.entries)) {
      expect(e.hint, e.title).toMatch(/[\u4e00-\u9fa5]/);
      expect(e.hint.length, e.title).toBeLessThanOrEqual(20);
    }
  });

  it('shows only what the permission allows', () => {
    const visitor = keysIn(menuGroups(PERMISSION.visitor));
    expect(visitor).toContain('/gateways');
    expect(visitor).toContain('/smart-toilet');
    expect(visitor).not.toContain('/test');
    expect(visitor).not.toContain('/smart-org');
    expect(visitor).not.toContain('/data-center');
    expect(visitor).not.toContain('/users');
    expect(keysIn(menuGroups(PERMISSION.visitor | PERMISSION.dataView))).toContain('/data-center');
  });

  it('shows nothing to a permission of 0 but everything while the permission is unknown', () => {
    expect(menuGroups(0)).toEqual([]);
    expect(keysIn(menuGroups(null))).toHaveLength(MENU.flatMap((s) => s.entries).length);
  });
});

describe('data-centre entry', () => {
  afterEach(() => localStorage.clear());

  it('opens /data-center until another version has been used, then that version', () => {
    expect(dataCenterPath()).toBe('/data-center');
    storeDcVersion('/display-center');
    expect(dataCenterPath()).toBe('/display-center');
    storeDcVersion('/data-center2');
    expect(dataCenterPath()).toBe('/data-center2');
  });

  it('ignores a remembered value that is not a data-centre version', () => {
    storeDcVersion('/users');
    expect(dataCenterPath()).toBe('/data-center');
  });
});
