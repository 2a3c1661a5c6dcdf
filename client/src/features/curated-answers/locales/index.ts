import { registerLocales } from '@/lib/i18n';
import { en } from './en';
import { he } from './he';

registerLocales('qa', { en, he });
