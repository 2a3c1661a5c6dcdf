import { chatMessages } from '@kesher/contracts/rules/chat';
import { useEffect } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { useTexts } from '@/lib/texts';
import { useSharedAssistant } from '../api/shared-assistant';
import { publicLocales } from '../locales';
import { sharedAssistantStore } from '../shared-assistant-store';

/** A refused link (unknown or revoked token) versus a link that could not be resolved right now. */
export function sharedLinkErrorKey(error: unknown): 'invalidLink' | 'startFailed' {
  if (!(error instanceof ApiError)) return 'startFailed';
  return error.status === 404 || error.status === 403 || error.detail === chatMessages.invalidShareLink
    ? 'invalidLink'
    : 'startFailed';
}

/**
 * /shared-chat/{token} (spec §2): 'Loading assistant...', then the public chat of that assistant,
 * keeping the query string (a session token may ride in it as sessionToken, token or github_token).
 * What chatting needs later — the share token and the assistant's external id — is kept locally.
 */
export function SharedChatPage({
  shareToken,
  search,
  navigate,
}: {
  shareToken: string;
  search: string;
  navigate: (to: string, options?: { replace?: boolean }) => void;
}) {
  const { t } = useTexts('public', publicLocales);
  const state = useSharedAssistant(shareToken);
  useEffect(() => {
    if (state.status !== 'ready') return;
    const { id, name, description, openai_assistant_id } = state.assistant;
    sharedAssistantStore.save({ id, name, description, openai_assistant_id, shareToken });
    navigate(`${paths.publicChat(id)}${search}`, { replace: true });
  }, [state, navigate, search, shareToken]);
  return (
    <main id="main" className="standalone">
      {state.status === 'error' ? (
        <div className="banner banner-error" role="alert">
          <p>{t(sharedLinkErrorKey(state.error))}</p>
          {sharedLinkErrorKey(state.error) === 'startFailed' ? (
            <button type="button" className="btn btn-secondary" onClick={state.retry}>
              {t('retry')}
            </button>
          ) : null}
        </div>
      ) : (
        <Spinner label={t('loadingAssistant')} />
      )}
    </main>
  );
}
