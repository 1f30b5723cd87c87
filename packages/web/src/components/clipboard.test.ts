import { beforeEach, describe, expect, it, vi } from 'vitest';
import { copyWithToast } from './CopyButton.tsx';
import { toast } from './toast.ts';

vi.mock(import('./toast.ts'), async (original) => ({
  ...(await original()),
  toast: { success: vi.fn(), warning: vi.fn(), error: vi.fn() },
}));

beforeEach(() => {
  vi.mocked(toast.success).mockReset();
  vi.mocked(toast.error).mockReset();
});

describe('copy to clipboard', () => {
  it('says 内容已复制到剪切板 when the text was copied', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('isSecureContext', true);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await expect(copyWithToast('482913')).resolves.toBe(true);
    expect(writeText).toHaveBeenCalledWith('482913');
    expect(toast.success).toHaveBeenCalledWith('内容已复制到剪切板');
  });

  it('says 抱歉，复制失败 when neither way of copying works', async () => {
    vi.stubGlobal('isSecureContext', true);
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: () => Promise.reject(new Error('denied')) },
    });
    document.execCommand = vi.fn(() => false);
    await expect(copyWithToast('x')).resolves.toBe(false);
    expect(toast.error).toHaveBeenCalledWith('抱歉，复制失败');
  });
});
