import '../locales';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useScrollSpy } from './use-scroll-spy';

type Section = { id: string; title: string; text: string };

/**
 * A legal document: numbered sections with either a scroll-spy table of contents or quick links. `intro`
 * goes under the title (the privacy page's retention periods and the owner's own data).
 */
export function LegalDocument({
  kind,
  nav,
  intro,
}: {
  kind: 'terms' | 'privacy';
  nav: 'toc' | 'quick';
  intro?: ReactNode;
}) {
  const { t } = useTranslation('legal');
  const sections = t(kind, { returnObjects: true }) as unknown as Section[];
  const active = useScrollSpy(sections.map((s) => s.id));
  const links = sections.map((s, i) => (
    <a
      key={s.id}
      href={`#${s.id}`}
      aria-current={active === s.id ? 'true' : undefined}
      className={nav === 'quick' ? 'chip' : undefined}
    >
      {i + 1}. {s.title}
    </a>
  ));
  return (
    <div className="page">
      <h1>{t(kind === 'terms' ? 'termsTitle' : 'privacyTitle')}</h1>
      <p className="muted">{t('updated')}</p>
      {intro}
      {nav === 'quick' ? (
        <nav className="quick-nav" aria-label={t('quickNav')}>
          {links}
        </nav>
      ) : null}
      <div className={nav === 'toc' ? 'legal' : undefined}>
        {nav === 'toc' ? (
          <nav className="legal-toc card" aria-label={t('toc')}>
            <h2>{t('toc')}</h2>
            <ol>
              {sections.map((s) => (
                <li key={s.id}>
                  <a href={`#${s.id}`} aria-current={active === s.id ? 'true' : undefined}>
                    {s.title}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        <div className="legal-body">
          {sections.map((s, i) => (
            <section key={s.id} id={s.id} className="legal-section" style={{ scrollMarginTop: '5rem' }}>
              <h2>
                {i + 1}. {s.title}
              </h2>
              <p>{s.text}</p>
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
