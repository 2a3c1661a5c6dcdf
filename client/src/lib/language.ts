/**
 * The interface language (spec §1): Hebrew by default, stored under `language`. Kept free of i18next so
 * the visitor pages (public chat, embed) can read it without loading the owner app's i18n runtime.
 */
import { localStore } from './safe-storage';

export type Language = 'en' | 'he';
export const LANGUAGE_KEY = 'language';
export const DEFAULT_LANGUAGE: Language = 'he';

export function storedLanguage(): Language {
  // Through the safe store: in a customer's page with third-party storage blocked, localStorage throws.
  const value = localStore.getItem(LANGUAGE_KEY);
  return value === 'en' || value === 'he' ? value : DEFAULT_LANGUAGE;
}

/** Hebrew reads right to left: the whole document flips, so logical CSS properties mirror the layout. */
export function applyDirection(language: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.documentElement.dir = language === 'he' ? 'rtl' : 'ltr';
}
