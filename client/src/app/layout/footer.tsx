import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';

export function Footer() {
  const { t } = useTranslation('layout');
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <div>
          <p className="logo-text">{t('common:appName')}</p>
          <p className="muted">{t('footerTagline')}</p>
          <p className="muted small">
            <span className="visually-hidden">{t('social')}</span>
            <span aria-hidden="true">𝕏 · in · ▶</span>
          </p>
        </div>
        <nav aria-label={t('footerProduct')}>
          <h2>{t('footerProduct')}</h2>
          <Link to={paths.features}>{t('features')}</Link>
          <Link to={paths.pricing}>{t('pricing')}</Link>
          <Link to={paths.releases}>{t('changelog')}</Link>
          <Link to={paths.featureRequest}>{t('featureRequest')}</Link>
        </nav>
        <nav aria-label={t('footerCompany')}>
          <h2>{t('footerCompany')}</h2>
          <Link to={paths.about}>{t('about')}</Link>
          <Link to={paths.faq}>{t('faq')}</Link>
          <Link to={paths.community}>{t('community')}</Link>
          <Link to={paths.affiliate}>{t('affiliate')}</Link>
        </nav>
        <nav aria-label={t('footerLegal')}>
          <h2>{t('footerLegal')}</h2>
          <Link to={paths.privacy}>{t('privacy')}</Link>
          <Link to={paths.terms}>{t('terms')}</Link>
        </nav>
      </div>
      {/* The prerendered landing pages carry their build's year: a page built in one year and opened in the
          next must still hydrate (React then keeps the text it found, until the next build). */}
      <p className="footer-rights muted small" suppressHydrationWarning>
        {t('rights', { year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}
