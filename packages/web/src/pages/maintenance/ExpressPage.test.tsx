import type { ExpressRow } from '@se/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { addExpress, listExpress, updateExpress } from '../../api/express.ts';
import { withProviders } from '../../test-render.tsx';
import ExpressPage from './ExpressPage.tsx';

vi.mock(import('../../api/express.ts'), async (original) => ({
  ...(await original()),
  listExpress: vi.fn(),
  addExpress: vi.fn(),
  updateExpress: vi.fn(),
}));

const ok = <T,>(data: T) => ({ code: 200, message: '', data });

const order = (id: number, over: Partial<ExpressRow> = {}): ExpressRow => ({
  id,
  company: 'sf',
  tracking_no: `SF12345678901${id}`,
  sender_name: '仓库',
  sender_phone: '13800000000',
  sender_address: '杭州市仓库',
  receiver_name: '张师傅',
  receiver_phone: '13900000000',
  receiver_address: '西湖公厕',
  items: [
    { ser_num: 'JWB-5', name: '', quantity: 1 },
    { ser_num: '', name: '香薰液', quantity: 2 },
  ],
  record_id: 12,
  record_no: 'WX000012',
  status: 0,
  note: '',
  user_name: 'dealer',
  created_at: '2026-11-20 08:00:00',
  ...over,
});

beforeEach(() => {
  vi.mocked(listExpress)
    .mockReset()
    .mockResolvedValue(ok({ list: [order(1)], total: 1, page: 1, page_size: 10 }));
  vi.mocked(addExpress)
    .mockReset()
    .mockResolvedValue(ok(order(2)));
  vi.mocked(updateExpress)
    .mockReset()
    .mockResolvedValue(ok(order(1, { status: 1 })));
});

function renderPage(entry = '/add-express-order') {
  const router = createMemoryRouter(
    [{ path: '/add-express-order', element: withProviders(<ExpressPage />) }],
    {
      initialEntries: [entry],
    },
  );
  render(<RouterProvider router={router} />);
}

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

function fillOrder(trackingNo: string) {
  fill('快递单号', trackingNo);
  fill('寄件人', '仓库');
  fill('寄件人电话', '13800000000');
  fill('寄件地址', '杭州市仓库');
  fill('收件人', '张师傅');
  fill('收件人电话', '13900000000');
  fill('收件地址', '西湖公厕');
  fill('配件名称', '香薰液');
}

const rowOf = (cell: HTMLElement) => within(cell.closest('tr')!);

describe('/add-express-order', { timeout: 30_000 }, () => {
  it('lists the orders beside the form with their status and items', async () => {
    renderPage();
    const row = rowOf(await screen.findByText('顺丰 SF123456789011'));
    expect(row.getByText('已下单')).toBeTruthy();
    expect(row.getByText('JWB-5、香薰液 ×2')).toBeTruthy();
  });

  it("checks the tracking number against the company's format before sending", async () => {
    renderPage();
    await screen.findByText('顺丰 SF123456789011');
    fillOrder('12345');
    fireEvent.click(screen.getByRole('button', { name: '保存快递单' }));
    expect(await screen.findByText('顺丰单号格式不正确（例如 SF1234567890123）')).toBeTruthy();
    expect(addExpress).not.toHaveBeenCalled();
  });

  it('saves an order for the work order it was opened from, then reloads the list', async () => {
    renderPage('/add-express-order?record=WX000012');
    await screen.findByText('顺丰 SF123456789011');
    fillOrder('SF1234567890123');
    fireEvent.click(screen.getByRole('button', { name: '保存快递单' }));
    await waitFor(() => expect(addExpress).toHaveBeenCalledTimes(1));
    expect(vi.mocked(addExpress).mock.calls[0]![0]).toMatchObject({
      company: 'sf',
      tracking_no: 'SF1234567890123',
      record_id: 12,
      items: [{ ser_num: '', name: '香薰液', quantity: 1 }],
    });
    await waitFor(() => expect(listExpress).toHaveBeenCalledTimes(2));
  });

  it('moves an order on to 运输中, and asks before deleting one', async () => {
    renderPage();
    const row = rowOf(await screen.findByText('顺丰 SF123456789011'));
    fireEvent.click(row.getByRole('button', { name: '运输中' }));
    await waitFor(() => expect(updateExpress).toHaveBeenCalledWith({ id: 1, status: 1 }));
    fireEvent.click(row.getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('确定删除快递单 SF123456789011 吗？')).toBeTruthy();
    expect(updateExpress).toHaveBeenCalledTimes(1);
  });
});
