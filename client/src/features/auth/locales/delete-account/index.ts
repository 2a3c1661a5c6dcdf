import type { Bundles } from '@/lib/texts';
import { en } from './en';
import { he } from './he';

export const deleteAccountLocales: Bundles = { en, he };
export const DELETE_ACCOUNT_NAMESPACE = 'delete-account';
