import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';

export type Language = 'en' | 'he';
export const LANGUAGE_KEY = 'language';
export const DEFAULT_LANGUAGE: Language = 'he';

export function storedLanguage(): Language {
  const value = typeof localStorage !== 'undefined' ? localStorage.getItem(LANGUAGE_KEY) : null;
  return value === 'en' || value === 'he' ? value : DEFAULT_LANGUAGE;
}

/** Hebrew reads right to left: the whole document flips, so logical CSS properties mirror the layout. */
function applyDirection(language: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.documentElement.dir = language === 'he' ? 'rtl' : 'ltr';
}

/** The owner's choice: stored and applied. */
export function setLanguage(language: Language) {
  localStorage.setItem(LANGUAGE_KEY, language);
  return i18n.changeLanguage(language);
}

/** Login and register are always English (spec §1) without overwriting the stored choice. */
export function forceLanguage(language: Language | null) {
  return i18n.changeLanguage(language ?? storedLanguage());
}

/** Features add their namespaces when their code loads, so each route chunk carries only its texts. */
const pending: [string, Record<Language, object>][] = [];

export function registerLocales(namespace: string, bundles: Record<Language, object>) {
  // A feature module can load before i18n starts (tests, early imports): keep its texts until then.
  if (!i18n.isInitialized) return void pending.push([namespace, bundles]);
  for (const [language, bundle] of Object.entries(bundles)) {
    if (!i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, bundle, true, false);
  }
}

export function initI18n(resources: Resource) {
  i18n.on('languageChanged', applyDirection);
  void i18n.use(initReactI18next).init({
    resources,
    lng: storedLanguage(),
    fallbackLng: false, // a missing key shows the key itself (spec §1), not the other language
    defaultNS: 'common',
    // The spec's texts use {name} placeholders.
    interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
    returnNull: false,
    react: { useSuspense: false },
    initAsync: false,
  });
  for (const [namespace, bundles] of pending.splice(0)) registerLocales(namespace, bundles);
  applyDirection(i18n.language);
  return i18n;
}

export { i18n };
