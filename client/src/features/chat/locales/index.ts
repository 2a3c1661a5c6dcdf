import type { Bundles } from '@/lib/texts';
import { en } from './en';
import { he } from './he';

/** The chat's texts, read through the texts port (i18next in the owner app, plain bundles for visitors). */
export const chatLocales: Bundles = { en, he };
export const CHAT_NAMESPACE = 'chat';
