// Times read in UTC+8 whatever the browser's zone: this file runs in Los Angeles (UTC-8 in
// winter), sixteen hours behind, so a time read or shown in the host's zone would be off.
process.env.TZ = 'America/Los_Angeles';

import type { OutboxMail } from '@se/core';
import { screen } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { getOutbox } from '../../api/develop.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { lastReportTitle } from '../devices/device-text.ts';
import TestPage from './TestPage.tsx';

vi.mock(import('../../api/develop.ts'), async (original) => ({ ...(await original()), getOutbox: vi.fn() }));

afterAll(() => {
  delete process.env.TZ;
});

const mail = (over: Partial<OutboxMail>): OutboxMail => ({
  id: 1,
  to_addr: 'a@example.com',
  subject: '验证码',
  body: '您的验证码是 123456',
  // The API's local times: UTC+8, without a zone.
  created_at: '2026-11-25 08:05:00',
  sent_at: '2026-11-25 08:05:09',
  error: null,
  ...over,
});

describe('times in a browser in another zone', () => {
  it('runs where the host zone is not UTC+8', () => {
    expect(new Date(0).getTimezoneOffset()).toBe(480);
  });

  it('shows /test mail times as the server wrote them (UTC+8), not shifted to the host zone', async () => {
    vi.mocked(getOutbox).mockResolvedValue({
      code: 200,
      message: '',
      data: { list: [mail({})], total: 1, page: 1, page_size: 10 },
    });
    renderWithProviders(<TestPage />, { router: true });
    expect(await screen.findByText('2026-11-25 08:05:00')).toBeTruthy();
    expect(screen.getByText(/已发送 2026-11-25 08:05:09/)).toBeTruthy();
  });

  it('shows a device list row’s last report instant in UTC+8', () => {
    // 2026-11-25 00:05:00 UTC is 08:05 in UTC+8 and 16:05 the day before in Los Angeles.
    expect(lastReportTitle(Date.UTC(2026, 10, 25, 0, 5, 0))).toBe('2026-11-25 08:05:00');
  });
});
