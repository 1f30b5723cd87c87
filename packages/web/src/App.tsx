import { UI_TIMING } from '@se/core';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { RouterProvider } from 'react-router';
import type { AppRouter } from './navigation/router.tsx';

const seconds = (ms: number) => ms / 1000;

/** SPEC §9's timings in antd's terms: animation length, modal z-index, dialog top, tooltip delay. */
export const UI_THEME = {
  token: {
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
