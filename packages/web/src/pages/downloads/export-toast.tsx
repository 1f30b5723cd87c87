import { useContext } from 'react';
import { UNSAFE_NavigationContext } from 'react-router';
import { startExport } from '../../api/downloads.ts';
import { attempt } from '../../components/feedback.ts';
import { TOAST_TITLES, loadNotification } from '../../components/toast.ts';

export const DOWNLOAD_PATH = '/download';

/**
 * Navigation for the toast's link: the router's when the component sits in one (the app),
 * a plain page load otherwise. A hook with no conditions, so it is safe in any component.
 */
export function useGoTo(): (to: string) => void {
  const nav = useContext(UNSAFE_NavigationContext);
  return (to) => {
    if (nav?.navigator) void nav.navigator.push(to);
    else window.location.assign(to);
  };
}

/**
 * Starts a background export and says so: a toast 已加入下载中心 with a link to /download.
 * Answers whether the job was created (a refusal was shown as a warning).
 */
export async function queueExport(
  name: string,
  params: Record<string, unknown>,
  goTo: (to: string) => void,
): Promise<boolean> {
  const outcome = await attempt(() => startExport(name, params));
  if (!outcome.ok) return false;
  const key = `export-${outcome.data.id}`;
  const api = await loadNotification().catch(() => null);
  api?.success({
    key,
    title: TOAST_TITLES.success,
    placement: 'topRight',
    description: (
      <>
        已加入下载中心，完成后可下载。{' '}
        <a
          href={DOWNLOAD_PATH}
          onClick={(e) => {
            e.preventDefault();
            api.destroy(key);
            goTo(DOWNLOAD_PATH);
          }}
        >
          前往下载中心
        </a>
      </>
    ),
  });
  return true;
}
