import type { Bundles } from '@/lib/texts';
import { en } from './en';
import { he } from './he';

/** Read through the texts port: the visitor's chat (no i18n runtime) uses the delete button too. */
export const privacyLocales: Bundles = { en, he };
export const PRIVACY_NAMESPACE = 'privacy-features';
