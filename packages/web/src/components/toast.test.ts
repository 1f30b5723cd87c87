import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadNotification, toast } from './toast.ts';

describe('toast', () => {
  // The toasts' own close timers, on a clock this file drops at its end: left running, they
  // fired after its window was gone, in the next file of the worker ("window is not defined").
  beforeEach(() => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
  });
  afterEach(() => {
    vi.clearAllTimers();
    vi.useRealTimers();
  });

  it('shows ten identical failures as one toast that counts them, and a different one apart', async () => {
    await loadNotification();
    for (let i = 0; i < 10; i++) toast.error('网络错误');
    toast.error('请求超时');
    await waitFor(() => {
      const notices = [...document.querySelectorAll('.ant-notification-notice')].map((n) => n.textContent);
      expect(notices).toHaveLength(2);
      expect(notices.some((t) => t?.includes('错误') && t.includes('网络错误（×10）'))).toBe(true);
      expect(notices.some((t) => t?.includes('请求超时') && !t.includes('×'))).toBe(true);
    });
  });
});
