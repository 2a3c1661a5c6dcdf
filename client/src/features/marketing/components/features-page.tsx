import '../locales';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';
import { useMarketing } from './use-list';

export function FeaturesPage() {
  const { t, list } = useMarketing();
  return (
    <div className="page">
      <header className="hero">
        <h1>{t('featuresPage.title')}</h1>
        <p>{t('featuresPage.intro')}</p>
      </header>
      <div className="feature-grid">
        {list<{ title: string; text: string }[]>('featuresPage.items').map((item) => (
          <section className="card" key={item.title}>
            <h2>{item.title}</h2>
            <p>{item.text}</p>
          </section>
        ))}
      </div>
      <section className="cta">
        <h2>{t('cta.title')}</h2>
        <Link className="btn btn-primary" to={paths.createAssistant}>
          {t('cta.button')}
        </Link>
      </section>
    </div>
  );
}
