import type { Envelope } from '@se/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { FormField } from './form-fields.tsx';
import { FormModal, type FormLoad } from './FormModal.tsx';
import { toast } from './toast.ts';
import { renderWithProviders } from '../test-render.tsx';

vi.mock(import('./toast.ts'), async (original) => ({
  ...(await original()),
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn() },
}));

interface Values {
  name: string;
  note: string;
  kind: number;
  secret: string;
}

const schema = z.object({
  name: z.string().trim().min(1, '请输入名称').max(10, '名称不能超过10个字符'),
  note: z.string().max(20, '备注不能超过20个字符'),
});

const fields: FormField<Values>[] = [
  { name: 'name', label: '名称', required: true },
  { name: 'note', label: '备注', kind: 'textarea' },
  {
    name: 'kind',
    label: '类型',
    kind: 'select',
    rules: [],
    options: [
      { value: 1, label: '甲' },
      { value: 2, label: '乙' },
    ],
  },
  // Only for the second kind: a condition on the values.
  { name: 'secret', label: '口令', kind: 'password', rules: [], hidden: (v) => v.kind !== 2 },
];

const initialValues: Values = { name: '', note: '', kind: 1, secret: '' };
const ok = <T,>(data: T): Envelope<T> => ({ code: 200, message: '', data });

function renderDialog({
  submit = vi.fn(async () => ok({ id: 1 })),
  load,
  onSaved = vi.fn(),
  onClosed = vi.fn(),
  onCancel,
}: {
  submit?: (values: Values) => Promise<Envelope<{ id: number }>>;
  load?: FormLoad<Values, Values>;
  onSaved?: () => void;
  onClosed?: () => void;
  /** Kept open by the test: onCancel says when the dialog would close. */
  onCancel?: () => void;
} = {}) {
  renderWithProviders(
    <FormModal<Values, { id: number }, Values>
      title="新建物品"
      width={480}
      fields={fields}
      schema={schema}
      initialValues={load ? undefined : initialValues}
      load={load}
      submit={submit}
      success="保存成功"
      onSaved={onSaved}
      errorField={(code) => (code === 409 ? 'name' : undefined)}
      onClosed={onClosed}
      open={onCancel ? true : undefined}
      onCancel={onCancel}
    />,
  );
  return { submit, onSaved, onClosed };
}

const isOpen = () => {
  const wrap = document.querySelector<HTMLElement>('.ant-modal-wrap');
  return !!wrap && wrap.style.display !== 'none';
};
const save = () => fireEvent.click(screen.getByRole('button', { name: '保存' }));

beforeEach(() => {
  for (const fn of Object.values(toast)) vi.mocked(fn).mockReset();
});

describe('FormModal with a form schema', () => {
  it('checks the fields with the core schema and calls nothing until they pass', async () => {
    const { submit } = renderDialog();
    await screen.findByText('新建物品');
    expect(screen.getByRole('button', { name: '取 消' })).toBeTruthy();
    save();
    expect(await screen.findByText('请输入名称')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('备注'), { target: { value: 'x'.repeat(21) } });
    expect(await screen.findByText('备注不能超过20个字符')).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
  });

  it('hands the values to submit once they pass', async () => {
    const { submit } = renderDialog();
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '拖把' } });
    fireEvent.change(screen.getByLabelText('备注'), { target: { value: '一楼' } });
    save();
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(submit).toHaveBeenCalledWith({ name: '拖把', note: '一楼', kind: 1 });
  });

  it('saves, says so, and closes', async () => {
    const onCancel = vi.fn();
    const { onSaved } = renderDialog({ onCancel });
    fireEvent.change(await screen.findByLabelText('名称'), { target: { value: '拖把' } });
    save();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('保存成功'));
    expect(onSaved).toHaveBeenCalledWith({ id: 1 });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('shows the server’s refusal, under the field it names, and stays open with what was typed', async () => {
    const submit = vi.fn(async () => ({ code: 409, message: '名称已存在', data: null as never }));
    const { onSaved } = renderDialog({ submit });
    const name = await screen.findByLabelText<HTMLInputElement>('名称');
    fireEvent.change(name, { target: { value: '拖把' } });
    save();
    await waitFor(() => expect(toast.warning).toHaveBeenCalledWith('名称已存在'));
    expect(await screen.findByText('名称已存在')).toBeTruthy();
    expect(isOpen()).toBe(true);
    expect(name.value).toBe('拖把');
    expect(onSaved).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('says 网络错误 when the save does not reach the server', async () => {
    const submit = vi.fn(() => Promise.reject(new Error('offline')));
    renderDialog({ submit });
    fireEvent.change(await screen.findByLabelText('名称'), { target: { value: '拖把' } });
    save();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('网络错误'));
    expect(isOpen()).toBe(true);
  });

  it('is not closed by a click outside, only by 取 消', async () => {
    const onCancel = vi.fn();
    renderDialog({ onCancel });
    await screen.findByText('新建物品');
    const wrap = document.querySelector<HTMLElement>('.ant-modal-wrap')!;
    fireEvent.mouseDown(wrap);
    fireEvent.mouseUp(wrap);
    fireEvent.click(wrap);
    const mask = document.querySelector<HTMLElement>('.ant-modal-mask');
    if (mask) fireEvent.click(mask);
    expect(onCancel).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '取 消' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('shows a field only while its condition holds', async () => {
    renderDialog();
    await screen.findByText('新建物品');
    expect(screen.queryByLabelText('口令')).toBeNull();
    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('乙'));
    expect(await screen.findByLabelText('口令')).toBeTruthy();
  });

  it('loads the values first, with save off until they are there', async () => {
    let resolve: (value: Envelope<Values>) => void = () => {};
    const queryFn = () => new Promise<Envelope<Values>>((r) => (resolve = r));
    renderDialog({ load: { queryKey: ['form-modal-test'], queryFn, values: (v) => v } });
    await screen.findByText('新建物品');
    expect(screen.getByRole('button', { name: '保存' }).hasAttribute('disabled')).toBe(true);
    resolve(ok({ ...initialValues, name: '水桶' }));
    expect((await screen.findByLabelText<HTMLInputElement>('名称')).value).toBe('水桶');
    expect(screen.getByRole('button', { name: '保存' }).hasAttribute('disabled')).toBe(false);
  });
});
