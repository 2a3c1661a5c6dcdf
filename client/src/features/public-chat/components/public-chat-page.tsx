import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTexts } from '@/lib/texts';
import { publicLocales } from '../locales';
import { sharedAssistantStore } from '../shared-assistant-store';
import { sessionTokenFromQuery, visitorSessionStore } from '../visitor-session-store';

export interface PublicChatContext {
  assistant: { id: number; name: string; description: string; externalId: string | null };
  /** The link the visitor came through; a public thread starts only with it. */
  shareToken: string | null;
  /** This visitor's session token for the assistant, if they have one. */
  sessionToken: string | null;
  /** Keeps the token the server issued with a new thread, so a reload can read the conversation. */
  rememberSession: (token: string) => void;
}

/**
 * /public-chat/{assistantId}: the assistant comes from local storage (written by the share link) or is
 * the 'Shared Assistant' stub (spec §2); the session token from the query or from local storage. The
 * chat itself is composed in by the route (features do not import each other).
 */
export function PublicChatPage({
  assistantId,
  search,
  renderChat,
}: {
  assistantId: string;
  search: string;
  renderChat: (context: PublicChatContext) => ReactNode;
}) {
  const { t } = useTexts('public', publicLocales);
  const stored = sharedAssistantStore.load(assistantId);
  const fromQuery = sessionTokenFromQuery(search);
  const [sessionToken, setSessionToken] = useState(() => fromQuery ?? visitorSessionStore.get(assistantId));

  useEffect(() => {
    if (fromQuery) visitorSessionStore.set(assistantId, fromQuery);
  }, [assistantId, fromQuery]);

  const rememberSession = useCallback(
    (token: string) => {
      visitorSessionStore.set(assistantId, token);
      setSessionToken(token);
    },
    [assistantId],
  );

  return renderChat({
    assistant: {
      id: Number(assistantId),
      name: stored?.name ?? t('sharedAssistant'),
      description: stored?.description ?? '',
      externalId: stored?.openai_assistant_id ?? null,
    },
    shareToken: stored?.shareToken ?? null,
    sessionToken,
    rememberSession,
  });
}
