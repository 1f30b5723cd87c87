import { Component, Suspense, type ComponentType, type ReactNode } from 'react';
import type { AppRoute } from '../routes.tsx';
import { PageRouteContext } from './page-route.ts';

// This file is on the path of every page, the login page included, so it uses plain
// markup (styled in base.css) rather than pulling antd's Spin and Empty into the entry.

class PageErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    // Nearly always a chunk that failed to download (network, or a deploy in between).
    return <PageProblem text="页面加载失败，请检查网络后重新加载。" action="重新加载" />;
  }
}

export function PageProblem({ text, action }: { text: string; action: '重新加载' | '返回首页' }) {
  return (
    <div className="page-problem" role="alert">
      <p>{text}</p>
      {action === '重新加载' ? (
        <button type="button" onClick={() => window.location.reload()}>
          {action}
        </button>
      ) : (
        <a href="/">{action}</a>
      )}
    </div>
  );
}

export function PageSpinner() {
  return (
    <div className="page-spinner" role="status" aria-label="加载中">
      <div className="app-splash__spinner" />
    </div>
  );
}

/**
 * One routed page: its route for usePageRoute(), a loading state and an error boundary.
 * `page` is the screen's component when the caller has it already (light-app.tsx).
 */
export function PageFrame({ route, page }: { route: AppRoute; page?: ComponentType }) {
  const Page = page ?? route.screen.Page;
  return (
    <PageRouteContext value={route}>
      <PageErrorBoundary>
        <Suspense fallback={<PageSpinner />}>
          <Page />
        </Suspense>
      </PageErrorBoundary>
    </PageRouteContext>
  );
}
