import { SERVICE } from '@se/core';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { actionLabel, describeChanges, VALUE_MAX } from './audit-changes.ts';
import { auditQuery, NO_AUDIT_FILTERS } from './audit-filter.ts';
import { dockingTestText, maskToken } from './docking-text.ts';

const text = (before: unknown, after: unknown) =>
  describeChanges(before, after).map((c) => `${c.label}：${c.text}`);

describe('audit changes', () => {
  it('shows a permission change with the roles it granted or took away', () => {
    expect(text({ permissions: 1 }, { permissions: 3 })).toEqual(['权限：1 → 3（+用户）']);
    expect(text({ permissions: 7 }, { permissions: 3 })).toEqual(['权限：7 → 3（−经销商）']);
  });

  it('shows a creation with the values it was made with, in a fixed field order', () => {
    expect(text(null, { permissions: 7, email: '', user_name: 'li' })).toEqual([
      '用户名：li',
      '邮箱：空',
      '权限：7（经销商、用户、游客）',
    ]);
  });

  it('shows repeated sign-in failures with Chinese labels', () => {
    expect(actionLabel('auth.login_failed')).toBe('多次登录失败');
    expect(text(null, { failures: 5, network: '203.0.113.*', network_locked: true })).toEqual([
      '失败次数：5',
      '来源网络：203.0.113.*',
      '已锁定该网络：是',
    ]);
  });

  it('shortens long role lists', () => {
    expect(text(null, { permissions: 127 })[0]).toMatch(/^权限：127（OEM、.*等9个）$/);
  });

  it('names weekly-report services', () => {
    expect(text({ services: 1 }, { services: 1 | SERVICE.toiletWeeklyReport })).toEqual([
      `服务：1 → ${1 | SERVICE.toiletWeeklyReport}（+智慧厕所周报服务）`,
    ]);
  });

  it('reads flags as 是/否 and leaves masked tokens masked', () => {
    expect(text({ is_delete: false }, { is_delete: true })).toEqual(['删除标记：否 → 是']);
    expect(text({ token: '***' }, { token: '***' })).toEqual(['令牌：*** → ***']);
  });

  it('cuts long values but keeps them whole for the tooltip', () => {
    const url = `https://example.com/${'a'.repeat(80)}`;
    const [change] = describeChanges({ url: 'http://old.example' }, { url });
    expect(change?.text).toContain('…');
    expect(change?.text.length).toBeLessThan(2 * VALUE_MAX + 10);
    expect(change?.full).toBe(`http://old.example → ${url}`);
  });

  it('shows nothing for an entry without changes, and unknown fields by their key', () => {
    expect(describeChanges({}, {})).toEqual([]);
    expect(text({ foo: 1 }, { foo: 2 })).toEqual(['foo：1 → 2']);
  });

  it('names actions in Chinese', () => {
    expect(actionLabel('user.delete')).toBe('删除用户');
    expect(actionLabel('docking.add')).toBe('新增对接接口');
    expect(actionLabel('something.else')).toBe('something.else');
  });
});

describe('audit filters', () => {
  it('send only what was filled in', () => {
    expect(auditQuery(NO_AUDIT_FILTERS)).toEqual({
      target_user_id: undefined,
      actor_id: undefined,
      start: undefined,
      end: undefined,
    });
  });

  it('send ids as numbers and the range in the server’s date-time form', () => {
    const start = dayjs('2025-03-01T00:00:00');
    const end = dayjs('2025-03-07T23:59:59');
    expect(auditQuery({ targetId: '12', actorId: '3', range: [start, end] })).toEqual({
      target_user_id: 12,
      actor_id: 3,
      start: '2025-03-01 00:00:00',
      end: '2025-03-07 23:59:59',
    });
  });
});

describe('docking test result', () => {
  it('reports status and latency on success', () => {
    expect(dockingTestText({ ok: true, status: 200, latency_ms: 35, error: null })).toBe(
      '测试成功：HTTP 200，耗时 35 ms',
    );
  });

  it('reports the server’s reason and latency on failure', () => {
    expect(dockingTestText({ ok: false, status: null, latency_ms: 5000, error: '连接超时' })).toBe(
      '测试失败：连接超时，耗时 5000 ms',
    );
    expect(dockingTestText({ ok: false, status: 500, latency_ms: 12, error: null })).toBe(
      '测试失败：对方返回 HTTP 500，耗时 12 ms',
    );
  });

  it('hides tokens behind a fixed mask', () => {
    expect(maskToken('abcdef0123456789abcdef')).toBe('••••••••');
    expect(maskToken('')).toBe('—');
  });
});
