import type { DockingTestResult } from '../../api/users.ts';

/** What a test call reports: status and latency when it worked, the reason and latency when not. */
export function dockingTestText(result: DockingTestResult): string {
  const latency = `耗时 ${result.latency_ms} ms`;
  if (result.ok) return `测试成功：HTTP ${result.status ?? '—'}，${latency}`;
  const reason = result.error ?? (result.status !== null ? `对方返回 HTTP ${result.status}` : '请求失败');
  return `测试失败：${reason}，${latency}`;
}

/**
 * A token as the list shows it before "显示": a fixed run of dots, so neither the token nor
 * its length is given away to someone looking over a shoulder.
 */
export const maskToken = (token: string): string => (token ? '••••••••' : '—');
