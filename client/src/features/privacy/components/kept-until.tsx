import { useQuery } from '@tanstack/react-query';
import { useTexts } from '@/lib/texts';
import { getKeptUntil } from '../api/privacy';
import { privacyLocales, PRIVACY_NAMESPACE } from '../locales';

export const keptUntilKey = (assistantId: number | string) => ['privacy', 'kept-until', String(assistantId)] as const;

/** Chat History's "Kept until …" for each conversation of an assistant (one call for the whole list). */
export function useKeptUntil(assistantId: number | string) {
  return useQuery({
    queryKey: keptUntilKey(assistantId),
    queryFn: ({ signal }) => getKeptUntil(assistantId, signal),
    staleTime: 60_000,
  });
}

/** The day a conversation is erased by retention; nothing while it is not known. */
export function KeptUntil({ assistantId, threadId }: { assistantId: number | string; threadId: string }) {
  const { t, language } = useTexts(PRIVACY_NAMESPACE, privacyLocales);
  const kept = useKeptUntil(assistantId).data?.get(threadId);
  if (!kept) return null;
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(kept));
  return <span className="muted small thread-kept-until">{t('keptUntil', { date })}</span>;
}
