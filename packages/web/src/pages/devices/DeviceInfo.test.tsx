import type { DeviceRow } from '@se/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UiProvider } from '../../App.tsx';
import { DeviceInfo } from './DeviceInfo.tsx';
import { deviceRow } from '../../test-rows.ts';

const dispenser = (over: Partial<DeviceRow> = {}): DeviceRow =>
  deviceRow({ id: 7, kind: 'jwb', ser_num: 'JWB-7', parameter_num: 2, ...over });

const show = (device: DeviceRow) =>
  render(
    <UiProvider>
      <DeviceInfo kind="jwb" device={device} />
    </UiProvider>,
  );

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
