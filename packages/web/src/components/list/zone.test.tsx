// Days in UTC+8 whatever the browser's zone: this file runs in Los Angeles (UTC-8 in winter),
// sixteen hours behind, where "today" is often another day than the product's.
process.env.TZ = 'America/Los_Angeles';

import type { Envelope } from '@se/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test-render.tsx';
import { SERVER_TIME, dateRange, nowUtc8, rangeQuery, type FilterFields, type Range } from './filters.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { DatePicker, TimePicker } from '../pickers.ts';
import { useListQuery, type RowsPage } from './use-list-query.ts';

afterAll(() => {
  delete process.env.TZ;
});

// 01:30 on 26 November in UTC+8; still 09:30 on the 25th in Los Angeles.
const NOW = new Date('2026-11-25T17:30:00Z');
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

type Filters = { range: Range };
const FILTERS: FilterFields<Filters> = { range: dateRange({ time: true }) };
const load = vi.fn<(f: Filters) => Promise<Envelope<RowsPage<{ id: number }>>>>();

function Screen() {
  const list = useListQuery({ key: ['zone-test'], filters: FILTERS, local: true, load });
  return <ListToolbar list={list} />;
}

describe('days in UTC+8 in a browser in another zone', () => {
  it('runs where the host zone is not UTC+8', () => {
    expect(NOW.getTimezoneOffset()).toBe(480);
  });

  it("starts today, this month and the time from UTC+8's clock", () => {
    expect(nowUtc8().format(SERVER_TIME)).toBe('2026-11-26 01:30:00');
    expect(nowUtc8().startOf('day').format(SERVER_TIME)).toBe('2026-11-26 00:00:00');
    expect(nowUtc8().startOf('month').format(SERVER_TIME)).toBe('2026-11-01 00:00:00');
  });

  it('searches the UTC+8 day with the 今天 preset', async () => {
    load.mockResolvedValue({ code: 200, message: '', data: { list: [], total: 0 } });
    renderWithProviders(<Screen />);
    const start = screen.getByPlaceholderText('开始时间');
    fireEvent.mouseDown(start);
    fireEvent.focus(start);
    fireEvent.click(start);
    fireEvent.click(await screen.findByText('今天'));
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(rangeQuery(load.mock.calls[1]![0].range)).toEqual({
      start: '2026-11-26 00:00:00',
      end: '2026-11-26 23:59:59',
    });
  }, 20_000);

  it("marks UTC+8's today in the calendar and answers it from 今天", async () => {
    const picked = vi.fn();
    renderWithProviders(<DatePicker open onChange={(d) => picked(d?.format('YYYY-MM-DD'))} />);
    const today = document.querySelector('.ant-picker-cell-today');
    expect(today?.getAttribute('title')).toBe('2026-11-26');
    fireEvent.click(await screen.findByText('今天'));
    expect(picked).toHaveBeenCalledWith('2026-11-26');
  });

  it('sets 此刻 to the time in UTC+8', async () => {
    const picked = vi.fn();
    renderWithProviders(<TimePicker open onChange={(d) => picked(d?.format('HH:mm'))} />);
    fireEvent.click(await screen.findByText('此刻'));
    expect(picked).toHaveBeenCalledWith('01:30');
  });
});
