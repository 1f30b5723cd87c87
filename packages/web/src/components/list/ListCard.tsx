import { Card } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useIsMobile } from '../../layout/viewport.ts';

/** The card a list screen sits in: narrower padding on a phone. */
export function ListCard({ children, body }: { children: ReactNode; body?: CSSProperties }) {
  const mobile = useIsMobile();
  return <Card styles={{ body: { padding: mobile ? 12 : 24, ...body } }}>{children}</Card>;
}
