import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Language, setLanguage } from '@/lib/i18n';

const GlobeIcon = () => (
  <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
    <circle cx="12" cy="12" r="10" />
    <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
  </svg>
);

/** English / Hebrew; a double click on the button is a shortcut to English (spec part 2 §2). */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('layout');
  const [open, setOpen] = useState(false);
  const choose = (language: Language) => {
    void setLanguage(language);
    setOpen(false);
  };
  return (
    <div className="menu language-switcher">
      <button
        type="button"
        className="btn btn-ghost"
        aria-haspopup="true"
        aria-expanded={open}
        title={t('languageHint')}
        onClick={() => setOpen((o) => !o)}
        onDoubleClick={() => choose('en')}
      >
        <GlobeIcon />
        <span className="visually-hidden">{t('language')}: </span>
        {i18n.language === 'he' ? t('hebrew') : t('english')}
      </button>
      {open ? (
        <ul className="menu-list">
          <li>
            <button
              type="button"
              lang="en"
              aria-current={i18n.language === 'en' ? 'true' : undefined}
              onClick={() => choose('en')}
            >
              {t('english')}
            </button>
          </li>
          <li>
            <button
              type="button"
              lang="he"
              aria-current={i18n.language === 'he' ? 'true' : undefined}
              onClick={() => choose('he')}
            >
              {t('hebrew')}
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
