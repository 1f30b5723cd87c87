import type { DeviceRow } from '@se/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getDeviceInfo, updateDeviceInfo } from '../../api/devices.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { DeviceInfo } from './DeviceInfo.tsx';
import { deviceRow } from '../../test-rows.ts';

const { withStubs } = await vi.hoisted(() => import('../../test-mock.ts'));
vi.mock(import('../../api/devices.ts'), (original) =>
  withStubs(original, ['getDeviceInfo', 'updateDeviceInfo']),
);
const INFO = {
  id: 7,
  com_num: '460001234',
  hard_num: 'HW-2.1',
  soft_num: '3.9.3',
  imei_num: '861234567890123',
  sim_num: '89860012345678901234',
  mac_address: '',
  create_time: '2026-11-01 08:00:00',
  update_time: '2026-11-20 09:30:00',
};
const ok = <T,>(data: T) => ({ code: 200, message: '', data });

const dispenser = (over: Partial<DeviceRow> = {}): DeviceRow =>
  deviceRow({ id: 7, kind: 'jwb', ser_num: 'JWB-7', parameter_num: 2, ...over });

const show = (device: DeviceRow) => {
  vi.mocked(getDeviceInfo).mockResolvedValue(ok(INFO));
  return renderWithProviders(<DeviceInfo kind="jwb" device={device} />);
};

// The server sends a device's token to those who manage it, in its drawer only (issue 12).
describe('基本信息 and the device token', () => {
  it('has no token row when the answer carries none (the caller does not manage the device)', () => {
    show(dispenser());
    expect(screen.getByText('JWB-7')).toBeTruthy();
    expect(screen.queryByText('令牌')).toBeNull();
    expect(screen.queryByRole('button', { name: '复制令牌' })).toBeNull();
  });

  it('shows it masked, with show and copy, to a manager', () => {
    show(dispenser({ token: 'abcdefghijklmnopqrstuvwx' }));
    expect(screen.getByText('令牌')).toBeTruthy();
    expect(screen.getByRole('button', { name: '显示令牌' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '复制令牌' })).toBeTruthy();
    expect(screen.queryByText('abcdefghijklmnopqrstuvwx')).toBeNull();
  });
});

describe('设备信息 (SPEC §3 device info)', () => {
  it('shows the hardware identity and edits it, refusing a malformed MAC address', async () => {
    show(dispenser());
    expect(await screen.findByText('861234567890123')).toBeTruthy();
    expect(screen.getByText('HW-2.1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '编辑' }));
    const mac = await screen.findByLabelText('MAC 地址');
    fireEvent.change(mac, { target: { value: 'not-a-mac' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('MAC 地址格式应为 AA:BB:CC:DD:EE:FF')).toBeTruthy();
    expect(updateDeviceInfo).not.toHaveBeenCalled();

    vi.mocked(updateDeviceInfo).mockResolvedValue(ok({ ...INFO, mac_address: 'AA:BB:CC:DD:EE:FF' }));
    vi.mocked(getDeviceInfo).mockResolvedValue(ok({ ...INFO, mac_address: 'AA:BB:CC:DD:EE:FF' }));
    fireEvent.change(mac, { target: { value: 'AA:BB:CC:DD:EE:FF' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(updateDeviceInfo).toHaveBeenCalledWith(
        expect.objectContaining({ id: 7, mac_address: 'AA:BB:CC:DD:EE:FF' }),
      ),
    );
    expect(await screen.findByText('AA:BB:CC:DD:EE:FF')).toBeTruthy();
  });
});
