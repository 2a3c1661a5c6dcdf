import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A real page frame for features that arrive later: heading plus a clear "coming soon" note. */
export function ComingSoonPage({ title, children }: { title: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="page coming-soon">
      <h1>{title}</h1>
      <div className="card">
        <h2>{t('common:comingSoonTitle')}</h2>
        <p>{t('common:comingSoon', { feature: title })}</p>
        {children}
      </div>
    </section>
  );
}
