import { useTranslation } from 'react-i18next';
import type { Language } from '@/lib/language';

/** The billing texts and the page's language (for Intl money and date formats). */
export function useBillingTexts() {
  const { t, i18n } = useTranslation('billing');
  const language: Language = i18n.language === 'en' ? 'en' : 'he';
  return { t, language };
}
