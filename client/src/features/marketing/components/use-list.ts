import { useTranslation } from 'react-i18next';

/** Reads a list (or object) from the marketing texts; the shapes are those of locales/en.ts. */
export function useMarketing() {
  const { t } = useTranslation('marketing');
  const list = <T>(key: string) => t(key, { returnObjects: true }) as unknown as T;
  return { t, list };
}
