import type { ReactNode } from 'react';
import { SiteFooter } from '../../components/SiteFooter.tsx';
import { APP_NAME } from '../../navigation/names.ts';
import './auth.css';

/** The cleaning-steward brand of the sign-in pages (SPEC §2 login title). */
export const BRAND = '保洁管家';

/** Frame of the sign-in, sign-up and recovery pages: brand, one card, the filing footer. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="auth-page">
      <header className="auth-brand">
        <img src="/favicon.svg" alt="" width={48} height={48} />
        <h1>
          {BRAND} · {APP_NAME}
        </h1>
        <p>智慧厕所与智能设施的一站式管理平台</p>
      </header>
      <main className="auth-card">
        <h2>{title}</h2>
        {children}
      </main>
      <SiteFooter style={{ marginTop: 'auto' }} />
    </div>
  );
}
