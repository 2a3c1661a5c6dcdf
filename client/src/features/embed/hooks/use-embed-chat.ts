import { useCallback, useEffect, useRef, useState } from 'react';
import { sendFeedback } from '@/lib/chat-core/chat-calls';
import { checkInput, inputProblemText } from '@/lib/chat-core/input-rules';
import type { SharedAssistant } from '@/features/public-chat/api/shared-assistant-shape';
import { ApiError } from '@/lib/api-error-base';
import { lazyModule } from '@/lib/lazy-module';
import type { Translate } from '@/lib/texts';
import {
  type ConversationStore,
  createSessionToken,
  deviceFingerprint,
  embedDomain,
  type Rating,
} from '../conversation-store';
import { type EmbedMessage, localMessage, toStored } from '../embed-messages';
import { postToParent, typingMessage } from '../parent-window';
import type * as EmbedSend from './embed-send';
import { type EmbedConversation, startEmbedConversation, visitorAccess } from './use-embed-session';

/**
 * Sending a question and following its run (embed-send.ts: the calls, the stream, its parser, the polling
 * schedule) is not on the embed's first load: it loads when the visitor first types (warmSendPath), so it is
 * there by the time the question is sent.
 */
const sendPath = lazyModule(() => import('./embed-send'));
export const warmSendPath = () => sendPath.load();

/** The input's problem in the page's language (the English texts are exactly chatInputProblem's). */
export const inputProblem = (text: string, t: Translate): string | null => inputProblemText(checkInput(text), t);

interface Options {
  assistant: SharedAssistant;
  shareToken: string;
  initial: EmbedConversation;
  store: ConversationStore;
  t: Translate;
}

/**
 * The embedded chat (spec part 2 §4 "Embedded chat"): the question shows at once and the input clears;
 * it is posted with its run in one call, and the run is followed (stream, else the embed's polling
 * schedule) while the Thinking state is on; a completed run reloads the conversation, a failed or late
 * one appends the spec's apology. Every change is written to the stored conversation; the parent window
 * hears when the assistant is typing and where a fresh sales-mode answer redirects.
 */
export function useEmbedChat({ assistant, shareToken, initial, store, t }: Options) {
  const [conversation, setConversation] = useState({ threadId: initial.threadId, sessionToken: initial.sessionToken });
  const [messages, setMessages] = useState<EmbedMessage[]>(initial.messages);
  const [restored, setRestored] = useState(initial.restored);
  const [thinking, setThinking] = useState(false);
  const [streamText, setStreamText] = useState<string | null>(null);
  const [draft, setDraftState] = useState('');
  const setDraft = useCallback((value: string) => {
    void warmSendPath().catch(() => {});
    setDraftState(value);
  }, []);
  const [alert, setAlert] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);

  const current = useRef(conversation);
  current.current = conversation;
  const latest = useRef({ messages, t });
  latest.current = { messages, t };
  const generation = useRef(0);
  const mounted = useRef(true);
  const operation = useRef<AbortController | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const typingAnnounced = useRef(false);
  const live = (gen: number) => mounted.current && generation.current === gen;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      operation.current?.abort();
      timers.current.forEach(clearTimeout);
      if (typingAnnounced.current) postToParent(typingMessage(false));
    };
  }, []);

  // The stored conversation follows what is on screen (a fresh 7 days from every change).
  useEffect(() => {
    store.save(assistant.id, {
      threadId: conversation.threadId,
      messages: toStored(messages),
      sessionToken: conversation.sessionToken,
      deviceFingerprint: deviceFingerprint(),
      domain: embedDomain(),
      shareToken,
    });
  }, [store, assistant.id, shareToken, conversation, messages]);

  // ASSISTANT_TYPING to the parent whenever the Thinking state changes (not for the initial idle state).
  useEffect(() => {
    if (!thinking && !typingAnnounced.current) return;
    typingAnnounced.current = true;
    postToParent(typingMessage(thinking));
  }, [thinking]);

  const apologize = (gen: number, key: 'runFailed' | 'timedOut' | 'sendFailed') => {
    if (live(gen)) setMessages((all) => [...all, localMessage('assistant', latest.current.t(key))]);
  };

  const switchTo = (next: EmbedConversation) => {
    generation.current++;
    current.current = { threadId: next.threadId, sessionToken: next.sessionToken };
    setConversation(current.current);
    setMessages(next.messages);
    setRestored(false);
    setStreamText(null);
    setAlert(null);
  };

  /** Thinking ends (for `gen`, if still on screen) and `op` is no longer the running operation. */
  const settle = (gen: number, op: AbortController) => {
    if (operation.current === op) operation.current = null;
    if (live(gen)) {
      setThinking(false);
      setStreamText(null);
    }
  };

  /** Enter or the Send button (spec §5): ignored when blank, while a reply is pending or without a thread. */
  const send = async () => {
    const { t: tr } = latest.current;
    if (draft.trim() === '' || thinking || switching || !current.current.threadId) return;
    const problem = inputProblem(draft, tr);
    if (problem) {
      setAlert(problem);
      return;
    }
    const text = draft.trim();
    const gen = generation.current;
    const pending = localMessage('user', text);
    setMessages((all) => [...all, pending]);
    latest.current.messages = [...latest.current.messages, pending];
    setDraft('');
    setAlert(null);
    setThinking(true);
    setStreamText(null);
    const op = new AbortController();
    operation.current = op;
    let sending: typeof EmbedSend;
    try {
      sending = await sendPath.load();
    } catch {
      apologize(gen, 'sendFailed');
      settle(gen, op);
      return;
    }
    if (!live(gen)) return settle(gen, op);
    await sending.sendQuestion(
      {
        assistant,
        shareToken,
        store,
        current,
        latest,
        generation,
        timers,
        mounted,
        live,
        switchTo,
        apologize,
        setMessages,
        setAlert,
        setStreamText,
        settle,
      },
      gen,
      text,
      pending,
      op,
    );
  };

  /** A new thread on the same session; the old one stays on the server. */
  const newConversation = async () => {
    if (thinking || switching) return;
    setSwitching(true);
    try {
      const next = await startEmbedConversation({
        assistant,
        shareToken,
        sessionToken: current.current.sessionToken,
        store,
      });
      if (mounted.current) switchTo(next);
    } catch {
      if (mounted.current) setAlert(latest.current.t('newFailed'));
    } finally {
      if (mounted.current) setSwitching(false);
    }
  };

  /**
   * Clear (after the confirmation, spec §4): the conversation is deleted for good on the server (erased:
   * nobody, the owner included, can read it again; docs/privacy.md), then a new thread on a new session
   * token replaces it here. If either fails, the conversation on screen stays and the spec's failure text
   * shows; one the server no longer has (404) has nothing left to delete.
   */
  const clearConversation = async () => {
    if (thinking || switching) return false;
    setSwitching(true);
    try {
      const old = current.current;
      // The privacy calls load with the first Clear (they are not on the embed's first load).
      const { deleteVisitorConversation } = await import('@/features/privacy/api/privacy');
      await deleteVisitorConversation(old.threadId, old.sessionToken).catch((error: unknown) => {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      });
      const next = await startEmbedConversation({ assistant, shareToken, sessionToken: createSessionToken(), store });
      if (mounted.current) switchTo(next);
      return true;
    } catch {
      if (mounted.current) setAlert(latest.current.t('clearFailed'));
      return false;
    } finally {
      if (mounted.current) setSwitching(false);
    }
  };

  const giveFeedback = useCallback(
    async (messageId: string, rating: Rating) => {
      const { threadId, sessionToken } = current.current;
      await sendFeedback(visitorAccess(sessionToken), {
        assistantId: assistant.id,
        threadId,
        messageId,
        rating,
        source: 'chat',
      });
      if (mounted.current) setMessages((all) => all.map((m) => (m.id === messageId ? { ...m, feedback: rating } : m)));
    },
    [assistant.id],
  );

  return {
    threadId: conversation.threadId,
    messages,
    restored,
    thinking,
    streamText,
    switching,
    draft,
    setDraft,
    alert,
    setAlert,
    send,
    newConversation,
    clearConversation,
    giveFeedback,
  };
}
