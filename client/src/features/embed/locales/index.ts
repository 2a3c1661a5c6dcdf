import type { Bundles } from '@/lib/texts';
import { en } from './en';
import { he } from './he';

/** The embed page's texts, for the texts port (the visitor entry answers them without i18next). */
export const EMBED_NAMESPACE = 'embed';
export const embedLocales: Bundles = { en, he };
