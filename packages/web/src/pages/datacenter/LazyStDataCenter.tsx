import { Spin } from 'antd';
import { lazy, Suspense } from 'react';

const StDataCenter = lazy(() => import('./StDataCenter.tsx'));

/** /st-data-center's tab in the toilets screen: the dashboard (and its CSS) load when first shown. */
export default function LazyStDataCenter() {
  return (
    <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
      <StDataCenter />
    </Suspense>
  );
}
