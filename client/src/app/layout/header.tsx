import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { useLogout } from '@/features/auth/api/logout';
import { displayName, useAuth } from '@/features/auth/hooks/use-auth';
import { paths } from '@/lib/paths';
import { Dropdown } from './dropdown';
import { LanguageSwitcher } from './language-switcher';

function SignedInNav() {
  const { t } = useTranslation('layout');
  return (
    <>
      <NavLink to={paths.dashboard}>{t('dashboard')}</NavLink>
      <NavLink to={paths.integrations}>{t('integrations')}</NavLink>
      <Dropdown label={t('automation')}>
        <Link to={paths.workflows}>{t('workflows')}</Link>
        <Link to={paths.guidelines}>{t('guidelines')}</Link>
        <Link to={paths.actions}>{t('actions')}</Link>
      </Dropdown>
      <NavLink to={paths.analytics}>{t('analytics')}</NavLink>
    </>
  );
}

function SignedOutNav() {
  const { t } = useTranslation('layout');
  return (
    <>
      <Dropdown label={t('product')}>
        <Link to={paths.features}>{t('features')}</Link>
        <Link to={paths.releases}>{t('releases')}</Link>
      </Dropdown>
      <Dropdown label={t('resources')}>
        <Link to={paths.faq}>{t('docsFaq')}</Link>
        <Link to={paths.community}>{t('community')}</Link>
      </Dropdown>
      <NavLink to={paths.pricing}>{t('pricing')}</NavLink>
    </>
  );
}

export function Header() {
  const { t } = useTranslation('layout');
  const { status, user } = useAuth();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setMobileOpen(false);
  }
  const signedIn = status === 'signedIn' && user;
  const signOut = () => logout.mutate(undefined, { onSettled: () => navigate(paths.home) });
  const nav = signedIn ? <SignedInNav /> : <SignedOutNav />;

  return (
    <header className="site-header">
      <div className="header-inner">
        <Link to={paths.about} className="logo" aria-label={t('homeLink')}>
          <img src="/icons/icon-192.png" alt="" width={32} height={32} />
          <span>{t('common:appName')}</span>
        </Link>
        <nav className="main-nav desktop-only" aria-label={t('nav')}>
          {nav}
        </nav>
        <div className="header-actions">
          <LanguageSwitcher />
          {signedIn ? (
            <Dropdown
              className="user-menu desktop-only"
              label={displayName(user)}
              buttonLabel={t('userMenu', { name: displayName(user) })}
            >
              <Link to={paths.settings}>{t('settings')}</Link>
              <Link to={paths.billing}>{t('billing')}</Link>
              <button type="button" onClick={signOut}>
                {t('signOut')}
              </button>
            </Dropdown>
          ) : (
            <Link className="btn btn-primary desktop-only" to={paths.createAssistant}>
              {t('createAssistant')}
            </Link>
          )}
          <button
            type="button"
            className="btn btn-ghost mobile-only"
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            aria-label={mobileOpen ? t('closeMenu') : t('openMenu')}
            onClick={() => setMobileOpen((o) => !o)}
          >
            {mobileOpen ? '✕' : '☰'}
          </button>
        </div>
      </div>
      {mobileOpen ? (
        <nav id="mobile-menu" className="mobile-menu" aria-label={t('nav')}>
          {nav}
          {signedIn ? (
            <>
              {/* On a phone the user menu lives here, under the owner's name. */}
              <p className="mobile-menu-user muted small" dir="auto">
                {displayName(user)}
              </p>
              <Link to={paths.settings}>{t('settings')}</Link>
              <Link to={paths.billing}>{t('billing')}</Link>
              <button type="button" className="btn btn-secondary" onClick={signOut}>
                {t('signOut')}
              </button>
            </>
          ) : (
            <Link className="btn btn-primary" to={paths.createAssistant}>
              {t('createAssistant')}
            </Link>
          )}
        </nav>
      ) : null}
    </header>
  );
}
