import type { Language } from '@/lib/language';
import { type LazyModule, lazyModule, loadedModule } from '@/lib/lazy-module';
import type { EmbedLocale } from './en';
import { he } from './he';

export const EMBED_NAMESPACE = 'embed';

/**
 * The embed page's texts, for the texts port (the visitor entry answers them without i18next). A page
 * shows one language: Hebrew, the default (spec §1), comes with the page; English is downloaded only by
 * a page in English, while it asks the server for the assistant.
 */
export const embedLocales: Record<Language, LazyModule<EmbedLocale>> = {
  he: loadedModule(he),
  en: lazyModule(() => import('./en').then((module) => module.en)),
};
