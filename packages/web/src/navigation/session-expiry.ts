import { setSessionExpiredHandler } from '../api/client.ts';
import { toast } from '../components/toast.ts';
import { routeByPath } from '../routes.tsx';
import { loginRedirect } from './guard.ts';
import type { AppRouter } from './router.tsx';

// Parallel calls all fail with the same code; one notice is enough.
const NOTICE_GAP_MS = 3000;

/**
 * SPEC §4/§8: after a 401, 4001 or 4002 the client has already cleared the session; here
 * the route is replaced with /login, keeping the current one as the redirect. Public
 * pages (login itself, mini-program login) answer such codes in their own way.
 */
export function installSessionExpiry(router: AppRouter): void {
  let lastNotice = 0;
  setSessionExpiredHandler((message) => {
    const { pathname, search } = router.state.location;
    if (routeByPath(pathname)?.access === 'public') return;
    if (Date.now() - lastNotice > NOTICE_GAP_MS) {
      lastNotice = Date.now();
      toast.warning(message || '登录状态已失效，请重新登录');
    }
    router.navigate(loginRedirect(pathname + search), { replace: true }).catch(() => {});
  });
}
