import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../App.tsx';
import { getOdTokenStatus, resetOdToken } from '../api/auth.ts';
import { useTokenDialog } from './TokenDialog.tsx';

vi.mock(import('../api/auth.ts'), async (original) => ({
  ...(await original()),
  getOdTokenStatus: vi.fn(),
  resetOdToken: vi.fn(),
}));
const status = vi.mocked(getOdTokenStatus);
const reset = vi.mocked(resetOdToken);

function Harness() {
  const dialog = useTokenDialog();
  return (
    <UiProvider>
      <button onClick={dialog.open}>登录令牌</button>
      {dialog.element}
    </UiProvider>
  );
}

const ok = <T,>(data: T) => ({ code: 200, message: '', data });

beforeEach(() => {
  status.mockReset();
  reset.mockReset();
});

describe('登录令牌', () => {
  it('makes a token shown once, and regenerates it only after a confirmation', async () => {
    status.mockResolvedValueOnce(ok({ exists: false, created_at: null }));
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: '登录令牌' }));
    expect(await screen.findByText('未生成')).toBeTruthy();

    reset.mockResolvedValueOnce(ok({ od_token: 'abcd1234567890wxyz' }));
    status.mockResolvedValueOnce(ok({ exists: true, created_at: '2026-11-25 12:00:00' }));
    fireEvent.click(screen.getByRole('button', { name: /生成令牌/ }));
    expect(await screen.findByText('请立即复制并妥善保存，关闭后无法再次查看')).toBeTruthy();
    expect(await screen.findByText('2026-11-25 12:00:00')).toBeTruthy();
    expect(screen.getByText('abcd••••••••••••wxyz')).toBeTruthy();

    // A second one asks first: the old token stops working.
    fireEvent.click(screen.getByRole('button', { name: /重新生成/ }));
    expect(await screen.findByText(/旧令牌将立即失效/)).toBeTruthy();
    expect(reset).toHaveBeenCalledTimes(1);
    reset.mockResolvedValueOnce(ok({ od_token: 'zzzz0000000000yyyy' }));
    status.mockResolvedValueOnce(ok({ exists: true, created_at: '2026-11-25 12:05:00' }));
    const confirm = screen.getAllByRole('button', { name: /重新生成/ }).at(-1)!;
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.getByText('zzzz••••••••••••yyyy')).toBeTruthy());
    expect(reset).toHaveBeenCalledTimes(2);
  });
});
