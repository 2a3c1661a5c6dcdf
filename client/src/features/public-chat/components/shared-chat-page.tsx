import { useEffect } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { useTexts } from '@/lib/texts';
import { useSharedAssistant } from '../api/shared-assistant';
import { publicLocales } from '../locales';
import { sharedAssistantStore } from '../shared-assistant-store';

/** /shared-chat/{token}: resolves the link, then continues at the public chat keeping the query string. */
export function SharedChatPage({ shareToken, search, navigate }: { shareToken: string; search: string; navigate: (to: string, options?: { replace?: boolean }) => void }) {
  const { t } = useTexts('public', publicLocales);
  const state = useSharedAssistant(shareToken);
  useEffect(() => {
    if (state.status !== 'ready') return;
    sharedAssistantStore.save(state.assistant);
    navigate(`${paths.publicChat(state.assistant.id)}${search}`, { replace: true });
  }, [state, navigate, search]);
  return (
    <main id="main" className="standalone">
      {state.status === 'error' ? (
        <p className="banner banner-error" role="alert">
          {state.error instanceof ApiError && state.error.status === 404 ? t('invalidLink') : t('startFailed')}
        </p>
      ) : (
        <Spinner label={t('loadingAssistant')} />
      )}
    </main>
  );
}
