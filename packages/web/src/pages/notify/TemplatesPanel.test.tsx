import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { addTemplate } from '../../api/notify.ts';
import { TemplateDialog } from './TemplatesPanel.tsx';
import { renderWithProviders } from '../../test-render.tsx';

vi.mock(import('../../api/notify.ts'), async (original) => ({
  ...(await original()),
  addTemplate: vi.fn(),
  previewTemplate: vi.fn(),
}));

function dialog() {
  const saved = vi.fn();
  renderWithProviders(<TemplateDialog template={null} onSaved={saved} onClosed={() => {}} />);
  return saved;
}

const preview = () => screen.getByRole('status', { name: '预览' });
const content = () => screen.getByPlaceholderText(/例如/) as HTMLTextAreaElement;

describe('template dialog', () => {
  it('previews the text with sample values while typing', async () => {
    dialog();
    await waitFor(() => expect(preview().textContent).toBe('输入内容后在此预览'));
    fireEvent.change(content(), { target: { value: '{desc}氨气 {nh3}' } });
    await waitFor(() => expect(preview().textContent).toBe('人民公园东门公厕氨气 1.62'));
    fireEvent.change(content(), { target: { value: '{desc}氨气 {nh3}，{user_name}请处理' } });
    await waitFor(() => expect(preview().textContent).toBe('人民公园东门公厕氨气 1.62，保洁主管请处理'));
  }, 20_000);

  it('warns about unknown placeholders and keeps them visible', async () => {
    dialog();
    fireEvent.change(content(), { target: { value: '{desc} {nh4}' } });
    await waitFor(() => expect(preview().textContent).toBe('人民公园东门公厕 {nh4}'));
    expect(await screen.findByText(/未知的占位符：\{nh4\}/)).toBeTruthy();
  }, 20_000);

  it('inserts a placeholder by clicking its tag', async () => {
    dialog();
    fireEvent.change(content(), { target: { value: '位置：' } });
    fireEvent.click(screen.getByText('{ser_num} 网关序列号'));
    expect(content().value).toBe('位置：{ser_num}');
    await waitFor(() => expect(preview().textContent).toBe('位置：GW20240001'));
  }, 20_000);

  it('saves name and content, and refuses an empty content', async () => {
    vi.mocked(addTemplate).mockResolvedValue({
      code: 200,
      message: '成功',
      data: { id: 1, user_id: 1, name: '超标', content: '{desc}', created_at: '', updated_at: '' },
    });
    const saved = dialog();
    fireEvent.change(screen.getByPlaceholderText('请输入模板名称'), { target: { value: '超标' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('内容不能为空')).toBeTruthy();
    expect(addTemplate).not.toHaveBeenCalled();
    fireEvent.change(content(), { target: { value: ' {desc} ' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(addTemplate).toHaveBeenCalledWith({ name: '超标', content: '{desc}' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
  }, 20_000);
});
