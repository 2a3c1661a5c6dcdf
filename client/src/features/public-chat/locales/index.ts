import type { Bundles } from '@/lib/texts';
import { en } from './en';
import { he } from './he';

/** The visitor pages' texts, read through the texts port (no i18n runtime on these pages). */
export const publicLocales: Bundles = { en, he };
