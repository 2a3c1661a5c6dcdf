import type { Language } from '@/lib/language';
import { type LazyModule, lazyModule } from '@/lib/lazy-module';
import type { EmbedLocale } from './en';

export const EMBED_NAMESPACE = 'embed';

/**
 * The embed page's texts, for the texts port (the visitor entry answers them without i18next), one
 * download per language: a visitor's page shows one language, so the other's texts are not on the
 * embed's first load (the page loads them while it asks the server for the assistant).
 */
export const embedLocales: Record<Language, LazyModule<EmbedLocale>> = {
  en: lazyModule(() => import('./en').then((module) => module.en)),
  he: lazyModule(() => import('./he').then((module) => module.he)),
};
