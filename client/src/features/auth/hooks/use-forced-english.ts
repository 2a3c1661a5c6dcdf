import { useEffect } from 'react';
import { forceLanguage } from '@/lib/i18n';

/** Login and register are shown in English (spec §1); leaving them restores the owner's language. */
export function useForcedEnglish() {
  useEffect(() => {
    void forceLanguage('en');
    return () => void forceLanguage(null);
  }, []);
}
