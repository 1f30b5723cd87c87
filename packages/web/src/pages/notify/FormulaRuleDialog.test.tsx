import type { NotifyObject } from '@se/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { addObject } from '../../api/notify.ts';
import { listObjectsForRules, listRuleDevices, listTemplatesForRules, updateRule } from '../../api/rules.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { okPage, ruleRow } from '../../test-rows.ts';
import { FormulaRuleDialog } from './FormulaRuleDialog.tsx';

const { withStubs } = await vi.hoisted(() => import('../../test-mock.ts'));
vi.mock(import('../../api/rules.ts'), (original) =>
  withStubs(original, ['listObjectsForRules', 'listRuleDevices', 'listTemplatesForRules', 'updateRule']),
);
vi.mock(import('../../api/notify.ts'), (original) => withStubs(original, ['addObject']));

const rule = ruleRow();

const duty: NotifyObject = {
  id: 5,
  user_id: 1,
  type: 'email',
  name: '值班邮箱',
  target: 'duty@example.com',
  target_label: 'duty@example.com',
  created_at: '2026-11-25 10:00:00',
  updated_at: '2026-11-25 10:00:00',
};

beforeEach(() => {
  vi.mocked(listObjectsForRules).mockResolvedValue(okPage<NotifyObject>([], 100));
  vi.mocked(listRuleDevices).mockResolvedValue(okPage([], 100));
  vi.mocked(listTemplatesForRules).mockResolvedValue(okPage([], 100));
  vi.mocked(addObject).mockResolvedValue({ code: 200, message: '成功', data: duty });
  vi.mocked(updateRule).mockResolvedValue({ code: 200, message: '成功', data: rule });
});

describe('rule dialog', { timeout: 30_000 }, () => {
  it('creates a missing recipient in place and selects it', async () => {
    const saved = vi.fn();
    renderWithProviders(<FormulaRuleDialog rule={rule} onSaved={saved} onClosed={() => {}} />);
    // A counting rule shows its window, not a duration.
    expect(await screen.findByText('统计时间（秒）')).toBeTruthy();
    expect(screen.queryByText('持续时间（秒）')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /新增提醒对象/ }));
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(2));
    const inner = screen.getAllByRole('dialog')[1]!;
    expect(within(inner).getByText('新增提醒对象')).toBeTruthy();
    fireEvent.change(within(inner).getByPlaceholderText('例如：保洁主管、值班邮箱'), {
      target: { value: '值班邮箱' },
    });
    fireEvent.mouseDown(within(inner).getByRole('combobox', { name: '类型' }));
    fireEvent.click(await screen.findByTitle('电子邮箱'));
    fireEvent.change(await within(inner).findByPlaceholderText('name@example.com'), {
      target: { value: 'duty@example.com' },
    });
    fireEvent.click(within(inner).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(addObject).toHaveBeenCalledWith({ name: '值班邮箱', type: 'email', target: 'duty@example.com' }),
    );
    // Back in the rule dialog, the new recipient is chosen.
    expect(await screen.findByText('值班邮箱（duty@example.com）')).toBeTruthy();

    const outer = screen.getAllByRole('dialog')[0]!;
    expect(within(outer).getByText(/编辑规则/)).toBeTruthy();
    fireEvent.click(within(outer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(updateRule).toHaveBeenCalled());
    expect(vi.mocked(updateRule).mock.calls[0]![0]).toMatchObject({
      id: 9,
      object_ids: [5],
      min_count: 3,
      window_s: 1800,
    });
    await waitFor(() => expect(saved).toHaveBeenCalled());
  });

  it('says how to go on when there is no recipient yet', async () => {
    renderWithProviders(<FormulaRuleDialog rule={rule} onSaved={() => {}} onClosed={() => {}} />);
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '提醒对象' }));
    expect(await screen.findByText('暂无提醒对象，点右侧「新增提醒对象」')).toBeTruthy();
  });
});
