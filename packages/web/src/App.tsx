import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { RouterProvider } from 'react-router';
import type { AppRouter } from './navigation/router.tsx';

/** antd's settings for the whole app (tests render pages inside it too). */
export function UiProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider
      locale={zhCN}
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
