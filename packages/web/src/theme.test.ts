import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { UI_THEME } from './App.tsx';

/** An antd colour (#rrggbb or rgba()) as opaque RGB over `under`. */
function rgb(color: string, under: number[] = [255, 255, 255]): number[] {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16));
  const parts = /^rgba?\(([^)]+)\)$/.exec(color)![1]!.split(',').map(Number);
  const alpha = parts[3] ?? 1;
  return [0, 1, 2].map((i) => parts[i]! * alpha + under[i]! * (1 - alpha));
}

const luminance = (c: number[]) => {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};

/** WCAG contrast ratio of text `fg` on `bg` (both may be translucent, over white). */
function contrast(fg: string, bg: string): number {
  const back = rgb(bg);
  const [a, b] = [luminance(rgb(fg, back)), luminance(back)].sort((x, y) => y - x);
  return (a! + 0.05) / (b! + 0.05);
}

describe('the console theme keeps text readable (4.5:1, WCAG AA)', () => {
  const t = theme.getDesignToken(UI_THEME);
  const white = '#ffffff';

  it.each([
    ['white on the primary blue (selected menu item, primary button)', white, t.colorPrimary],
    ['links, link buttons and the active tab', t.colorLink, white],
    ['the primary blue on its light background (processing tag)', t.colorInfo, t.colorInfoBg],
    ['danger link buttons', t.colorError, white],
    ['error tags', t.colorError, t.colorErrorBg],
    ['success tags', t.colorSuccess, t.colorSuccessBg],
    ['warning tags', t.colorWarning, t.colorWarningBg],
    ['white on a danger button', white, t.colorError],
    ['secondary text', t.colorTextDescription, white],
    ['tertiary text (descriptions, hints)', t.colorTextTertiary, white],
    ['placeholders', t.colorTextPlaceholder, white],
    ['secondary text on a table header', t.colorTextDescription, t.colorFillAlter],
  ])('%s', (_, fg, bg) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it("measures antd's own defaults as too faint, so the test can fail", () => {
    const plain = theme.getDesignToken();
    expect(contrast(white, plain.colorPrimary)).toBeLessThan(4.5);
    expect(contrast(plain.colorSuccess, plain.colorSuccessBg)).toBeLessThan(4.5);
  });
});
