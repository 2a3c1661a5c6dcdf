import { useEffect, useState } from 'react';
import type { ChatAccess } from '@/lib/chat-core/chat-access';
import { listMessages, startVisitorThread } from '@/lib/chat-core/chat-calls';
import type { SharedAssistant } from '@/features/public-chat/api/shared-assistant-shape';
import { ApiError } from '@/lib/api-error-base';
import { describeApiFailure, type EmbedInitProblem, getEmbedAssistant } from '../api/embed-assistant';
import { type ConversationStore, createSessionToken, deviceFingerprint, embedDomain } from '../conversation-store';
import { type EmbedMessage, fromStored, toStored, withFeedback } from '../embed-messages';
import { inPageLanguage } from '../server-words';

/** A conversation the page can show: its thread, the session token that reads it, what was said. */
export interface EmbedConversation {
  threadId: string;
  sessionToken: string;
  messages: EmbedMessage[];
  /** Loaded from this browser's storage (the header's "chat history restored" badge). */
  restored: boolean;
}

export type EmbedSessionState =
  | { status: 'loading' }
  | { status: 'failed'; problem: EmbedInitProblem }
  | { status: 'ready'; assistant: SharedAssistant; conversation: EmbedConversation; store: ConversationStore };

export const visitorAccess = (sessionToken: string): ChatAccess => ({ kind: 'visitor', sessionToken });

/** A thread that cannot be read any more (404 THREAD_NOT_FOUND) or never could (400 THREAD_INVALID). */
export const isThreadGone = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

interface StartInput {
  assistant: SharedAssistant;
  shareToken: string;
  sessionToken: string;
  store: ConversationStore;
}

/** Starts a thread on the visitor's session token (channel embed) and stores it. */
export async function startEmbedConversation({
  assistant,
  shareToken,
  sessionToken,
  store,
}: StartInput): Promise<EmbedConversation> {
  const started = await startVisitorThread({ assistantId: assistant.id, shareToken, sessionToken, channel: 'embed' });
  const token = started.sessionToken ?? sessionToken;
  store.save(assistant.id, {
    threadId: started.threadId,
    messages: [],
    sessionToken: token,
    deviceFingerprint: deviceFingerprint(),
    domain: embedDomain(),
    shareToken,
  });
  return { threadId: started.threadId, sessionToken: token, messages: [], restored: false };
}

/**
 * Restore or start (spec part 2 §4): a stored conversation of this assistant, made through this share
 * link and not expired, is read back from the server; a thread the server no longer knows (404, 400)
 * drops it and a new thread starts. When the server cannot be reached, the stored messages are shown.
 * A `sessionToken` in the address (an owner testing from Widget Preview) wins over the stored one.
 */
export async function prepareConversation(
  input: { assistant: SharedAssistant; shareToken: string; querySessionToken: string | null; store: ConversationStore },
  signal?: AbortSignal,
): Promise<EmbedConversation> {
  const { assistant, shareToken, querySessionToken, store } = input;
  let stored = store.load(assistant.id, shareToken);
  if (stored && querySessionToken && stored.sessionToken.token !== querySessionToken) {
    store.remove(assistant.id);
    stored = null;
  }
  const sessionToken = querySessionToken ?? stored?.sessionToken.token ?? createSessionToken();
  if (stored) {
    try {
      const list = await listMessages(visitorAccess(sessionToken), stored.threadId, signal);
      const messages = withFeedback(list, stored.messages);
      store.save(assistant.id, {
        threadId: stored.threadId,
        messages: toStored(messages),
        sessionToken,
        deviceFingerprint: deviceFingerprint(),
        domain: embedDomain(),
        shareToken,
      });
      return { threadId: stored.threadId, sessionToken, messages, restored: messages.length > 0 };
    } catch (error) {
      if (signal?.aborted) throw error;
      if (!isThreadGone(error)) {
        if (describeApiFailure(error).kind === 'notFound') throw error;
        return {
          threadId: stored.threadId,
          sessionToken,
          messages: stored.messages.map(fromStored),
          restored: stored.messages.length > 0,
        };
      }
      store.remove(assistant.id);
    }
  }
  return startEmbedConversation({ assistant, shareToken, sessionToken, store });
}

/** The embed page's start-up: loading → failed (retry) / ready. `storeReady`: where conversations are kept. */
export function useEmbedSession(
  shareToken: string,
  querySessionToken: string | null,
  storeReady: Promise<ConversationStore>,
) {
  const [state, setState] = useState<EmbedSessionState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!shareToken) {
      setState({ status: 'failed', problem: { kind: 'noToken' } });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'loading' });
    (async () => {
      const [assistant, store] = await Promise.all([getEmbedAssistant(shareToken, controller.signal), storeReady]);
      const conversation = await prepareConversation(
        { assistant, shareToken, querySessionToken, store },
        controller.signal,
      );
      if (!controller.signal.aborted) setState({ status: 'ready', assistant, conversation, store });
    })().catch(async (error: unknown) => {
      const problem = await inPageLanguage(describeApiFailure(error));
      if (!controller.signal.aborted) setState({ status: 'failed', problem });
    });
    return () => controller.abort();
  }, [shareToken, querySessionToken, storeReady, attempt]);
  return { state, retry: () => setAttempt((n) => n + 1) };
}
