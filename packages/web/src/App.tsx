import { UI_TIMING } from '@se/core';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { RouterProvider } from 'react-router';
import type { AppRouter } from './navigation/router.tsx';

const seconds = (ms: number) => ms / 1000;

/**
 * Colours every text keeps at 4.5:1 or more against its background (WCAG AA, Lighthouse
 * accessibility ≥ 95, issue 19). antd's defaults do not: white on its blue #1677ff (the
 * selected menu item, primary buttons) is 4.1:1, its red link buttons 3.3:1, its green and
 * gold tags 2.2:1 and 1.8:1, secondary text 3.4:1 and placeholders 1.8:1. The status seeds are
 * the palettes' darker shades; their tags keep the light backgrounds of antd's defaults.
 */
export const READABLE_COLORS = {
  colorPrimary: '#0958d9',
  colorInfo: '#0958d9',
  colorLink: '#0958d9',
  colorError: '#cf1322',
  colorErrorBg: '#fff2f0',
  colorSuccess: '#237804',
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorWarning: '#874d00',
  colorWarningBg: '#fffbe6',
  colorWarningBorder: '#ffe58f',
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
} as const;

/**
 * The theme of the whole app: readable colours, and SPEC §9's timings in antd's terms
 * (animation length, modal z-index; dialog top and tooltip delay are set in UiProvider).
 */
export const UI_THEME = {
  token: {
    ...READABLE_COLORS,
    motionDurationMid: `${seconds(UI_TIMING.animationMs)}s`,
    zIndexPopupBase: UI_TIMING.modalZIndex,
  },
} as const;

/** antd's settings for the whole app (tests render pages inside it too). */
export function UiProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider
      locale={zhCN}
      theme={UI_THEME}
      modal={{ style: { top: UI_TIMING.dialogTop } }}
      tooltip={{ mouseEnterDelay: seconds(UI_TIMING.tooltipDelayMs) }}
      // Button texts are shown as written: SPEC spells 取 消 with a space and 确定 without.
      button={{ autoInsertSpace: false }}
    >
      {children}
    </ConfigProvider>
  );
}

export function App({ router }: { router: AppRouter }) {
  return (
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>
  );
}
