import { Button } from 'antd';
import type staticNotification from 'antd/es/notification';
import { createElement } from 'react';

/** SPEC §8: toasts sit top-right, titled 消息 / 警告 / 错误 by kind. */
export const TOAST_TITLES = { success: '消息', warning: '警告', error: '错误' } as const;

type Kind = keyof typeof TOAST_TITLES;
type NotificationApi = typeof staticNotification;

let loading: Promise<NotificationApi> | undefined;

/**
 * antd's notification code is fetched apart from the first screen's JS and prefetched
 * once the app is idle (see main.tsx), so the login page renders sooner and a toast
 * still shows when the network has gone by the time it is needed.
 */
export function loadNotification(): Promise<NotificationApi> {
  loading ??= import('antd/es/notification').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The same toast again while one is up updates it (×n) instead of stacking another. */
const REPEAT_WINDOW_MS = 4500;
const recent = new Map<string, { at: number; count: number }>();

function show(kind: Kind, description: string): void {
  const key = `${kind}:${description}`;
  const now = Date.now();
  const seen = recent.get(key);
  const count = seen && now - seen.at < REPEAT_WINDOW_MS ? seen.count + 1 : 1;
  recent.set(key, { at: now, count });
  for (const [k, v] of recent) if (now - v.at >= REPEAT_WINDOW_MS) recent.delete(k);
  loadNotification()
    .then((api) =>
      api[kind]({
        key,
        title: TOAST_TITLES[kind],
        description: count > 1 ? `${description}（×${count}）` : description,
        placement: 'topRight',
      }),
    )
    .catch(() => {});
}

let actionSeq = 0;

/**
 * A success toast with one action (e.g. 撤销 after a delete): the action runs once, and
 * closes the toast.
 */
export function toastWithAction(description: string, label: string, onAction: () => void): void {
  const key = `toast-action-${++actionSeq}`;
  loadNotification()
    .then((api) =>
      api.success({
        key,
        title: TOAST_TITLES.success,
        description,
        placement: 'topRight',
        duration: 8,
        actions: createElement(
          Button,
          {
            size: 'small',
            type: 'link',
            onClick: () => {
              api.destroy(key);
              onAction();
            },
          },
          label,
        ),
      }),
    )
    .catch(() => {});
}

export const toast = {
  success: (description: string) => show('success', description),
  warning: (description: string) => show('warning', description),
  error: (description: string) => show('error', description),
};
