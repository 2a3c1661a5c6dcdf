import '../locales';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '@/lib/paths';
import { useMarketing } from './use-list';

type Split = { title: string; text: string; icon: string };
type Qa = { q: string; a: string };

export function AboutPage() {
  const { t, list } = useMarketing();
  const { hash } = useLocation();
  // The page arrives as a lazy chunk, after the layout's own scroll: jump to #faq once it exists.
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);
  return (
    <div className="page">
      <section className="hero">
        <h1>{t('hero.title')}</h1>
        <p>{t('hero.text')}</p>
        <div className="hero-actions">
          <Link className="btn btn-primary" to={paths.createAssistant}>
            {t('hero.primary')}
          </Link>
          <Link className="btn btn-secondary" to={paths.features}>
            {t('hero.secondary')}
          </Link>
        </div>
        <p className="small">{t('hero.trial')}</p>
      </section>

      {list<Split[]>('splits').map((split) => (
        <section className="split" key={split.title}>
          <div>
            <h2>{split.title}</h2>
            <p>{split.text}</p>
            <Link className="btn btn-primary" to={paths.createAssistant}>
              {t('createLink')}
            </Link>
          </div>
          <div className="split-art" aria-hidden="true">
            {split.icon}
          </div>
        </section>
      ))}

      <section className="card">
        <h2>{t('security.title')}</h2>
        <ul>
          {list<string[]>('security.points').map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
      </section>

      <section className="card" style={{ marginBlockStart: '1.5rem' }}>
        <h2>{t('teaser.title')}</h2>
        <p>{t('teaser.text')}</p>
        <Link to={paths.pricing}>{t('teaser.link')}</Link>
      </section>

      <section
        id="faq"
        className="faq"
        aria-labelledby="faq-title"
        style={{ marginBlockStart: '2rem', scrollMarginTop: '5rem' }}
      >
        <h2 id="faq-title">{t('faqTitle')}</h2>
        {list<Qa[]>('faq').map((item) => (
          <details key={item.q}>
            <summary>{item.q}</summary>
            <p>{item.a}</p>
          </details>
        ))}
      </section>

      <section className="cta">
        <h2>{t('cta.title')}</h2>
        <p>{t('cta.text')}</p>
        <Link className="btn btn-primary" to={paths.createAssistant}>
          {t('cta.button')}
        </Link>
      </section>
    </div>
  );
}
