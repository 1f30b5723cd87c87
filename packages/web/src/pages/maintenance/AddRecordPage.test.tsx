import type { Prefill } from '@se/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { addRecord, listEquipmentTypes, listFaultTypes, prefillRecord } from '../../api/maintenance.ts';
import { withProviders } from '../../test-render.tsx';
import AddRecordPage from './AddRecordPage.tsx';

vi.mock(import('../../api/maintenance.ts'), async (original) => ({
  ...(await original()),
  addRecord: vi.fn(),
  prefillRecord: vi.fn(),
  listEquipmentTypes: vi.fn(),
  listFaultTypes: vi.fn(),
}));

const ok = <T,>(data: T) => ({ code: 200, message: '', data });
const subject: Prefill = {
  device_id: 5,
  ser_num: 'JWB-5',
  device_desc: '男卫除臭机',
  toilet_id: 2,
  toilet_name: '西湖公厕',
  part_id: null,
  part_name: '',
  alarm_id: null,
  equipment_type_id: 1,
  fault_type_id: null,
  description: '',
};

beforeEach(() => {
  localStorage.clear();
  vi.mocked(addRecord).mockReset();
  vi.mocked(prefillRecord).mockReset().mockResolvedValue(ok(subject));
  vi.mocked(listEquipmentTypes).mockResolvedValue(
    ok({
      list: [
        {
          id: 1,
          name: '除臭机',
          code: 'jwb',
          category: 'device',
          note: '',
          builtin: true,
          editable: false,
          fault_count: 4,
          created_at: '',
        },
      ],
      total: 1,
      page: 1,
      page_size: 100,
    }),
  );
  vi.mocked(listFaultTypes).mockResolvedValue(ok({ list: [], total: 0, page: 1, page_size: 100 }));
});

function renderPage(entry: string) {
  const router = createMemoryRouter(
    [
      { path: '/add-maintenance-record', element: withProviders(<AddRecordPage />) },
      { path: '/maintenance-records', element: <p>records</p> },
    ],
    { initialEntries: [entry] },
  );
  return render(<RouterProvider router={router} />);
}

describe('/add-maintenance-record', { timeout: 20_000 }, () => {
  it('opened by a device QR code, fills the device; the form survives a reload', async () => {
    const first = renderPage('/add-maintenance-record?ser_num=JWB-5');
    await screen.findByText('JWB-5（男卫除臭机）');
    expect(prefillRecord).toHaveBeenCalledWith({ ser_num: 'JWB-5' });
    fireEvent.change(screen.getByLabelText('故障描述'), { target: { value: '出雾很弱' } });
    first.unmount();

    renderPage('/add-maintenance-record');
    await screen.findByText('JWB-5（男卫除臭机）');
    expect(screen.getByLabelText<HTMLTextAreaElement>('故障描述').value).toBe('出雾很弱');
    expect(prefillRecord).toHaveBeenCalledTimes(1);
  });

  it('keeps the form after a failed submission and retries it', async () => {
    vi.mocked(addRecord)
      .mockRejectedValueOnce(new ApiError('network', 'Network Error'))
      .mockResolvedValueOnce(ok({ id: 12, no: 'WX000012' }));
    renderPage('/add-maintenance-record?ser_num=JWB-5');
    await screen.findByText('JWB-5（男卫除臭机）');
    fireEvent.change(screen.getByLabelText('故障描述'), { target: { value: '缺液' } });
    fireEvent.click(screen.getByRole('button', { name: '提交报修' }));
    await screen.findByText('提交失败，内容已保存在本机');
    expect(screen.getByLabelText<HTMLTextAreaElement>('故障描述').value).toBe('缺液');
    expect(localStorage.getItem('maintenance.record-draft')).toContain('缺液');

    fireEvent.click(screen.getByRole('button', { name: '重试' }));
    await screen.findByText('报修成功：WX000012');
    expect(addRecord).toHaveBeenLastCalledWith({
      device_id: 5,
      part_id: undefined,
      toilet_id: undefined,
      alarm_id: undefined,
      equipment_type_id: 1,
      fault_type_id: undefined,
      description: '缺液',
    });
    await waitFor(() => expect(localStorage.getItem('maintenance.record-draft')).toBeNull());
  });
});
