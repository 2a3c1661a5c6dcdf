import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { applyDirection, type Language, LANGUAGE_KEY, storedLanguage } from './language';
import { localStore } from './safe-storage';
import type { TextSource } from './texts';

export { DEFAULT_LANGUAGE, LANGUAGE_KEY, storedLanguage, type Language } from './language';

/** The owner's choice: stored and applied. */
export function setLanguage(language: Language) {
  localStore.setItem(LANGUAGE_KEY, language);
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

/** How the app's texts are read; the plural forms test builds its own instance from the same options. */
export const i18nOptions = (resources: Resource, lng: Language) => ({
  resources,
  lng,
  fallbackLng: false as const, // a missing key shows the key itself (spec §1), not the other language
  defaultNS: 'common',
  // The spec's texts use {name} placeholders.
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  returnNull: false,
  react: { useSuspense: false },
  initAsync: false,
});

export function initI18n(resources: Resource) {
  i18n.on('languageChanged', applyDirection);
  void i18n.use(initReactI18next).init(i18nOptions(resources, storedLanguage()));
  for (const [namespace, bundles] of pending.splice(0)) registerLocales(namespace, bundles);
  applyDirection(i18n.language);
  return i18n;
}

/** The texts port (lib/texts.tsx) answered by i18next, for components shared with the visitor pages. */
export const i18nextTextSource: TextSource = {
  language: () => (i18n.language === 'en' ? 'en' : 'he'),
  setLanguage: (language) => void setLanguage(language),
  subscribe(listener) {
    i18n.on('languageChanged', listener);
    return () => i18n.off('languageChanged', listener);
  },
  translator(namespace, bundles) {
    registerLocales(namespace, bundles);
    const t = i18n.getFixedT(null, namespace);
    return (key, vars) => t(key, vars ?? {});
  },
};

export { i18n };
