import type { Dispatch, SetStateAction } from 'react';
import { listMessages } from '@/lib/chat-core/chat-calls';
import { isThreadGoneOnSend, sendMessageAndRun } from '@/lib/chat-core/run-calls';
import type { ChatMessage, ChatRun } from '@/lib/chat-core/chat-messages';
import { arrivedAnswers, followRun, freshRedirect } from '@/lib/chat-core/follow-run';
import type { SharedAssistant } from '@/features/public-chat/api/shared-assistant-shape';
import { ApiError } from '@/lib/api-error-base';
import type { Translate } from '@/lib/texts';
import type { ConversationStore } from '../conversation-store';
import { type EmbedMessage, fromChatMessage, withFeedback } from '../embed-messages';
import { embedPolling } from '../embed-run';
import { openRedirect, REDIRECT_DELAY_MS } from '../parent-window';
import { refusalText } from '../server-words';
import { type EmbedConversation, startEmbedConversation, visitorAccess } from './use-embed-session';

/*
 * Sending a question and waiting for its answer (use-embed-chat.ts keeps the state and calls this): not on
 * the embed's first load. It loads, with following a run (the stream, its parser, the polling schedule),
 * when the visitor first types, so it is there by the time the question is sent.
 */

/** A mutable box, as React's refs are. */
interface Box<T> {
  current: T;
}

/** What the send reads and changes of the embedded chat (useEmbedChat's state and refs). */
export interface SendContext {
  assistant: SharedAssistant;
  shareToken: string;
  store: ConversationStore;
  current: Box<{ threadId: string; sessionToken: string }>;
  latest: Box<{ messages: EmbedMessage[]; t: Translate }>;
  generation: Box<number>;
  timers: Box<ReturnType<typeof setTimeout>[]>;
  mounted: Box<boolean>;
  /** Whether `gen` is still the conversation on screen. */
  live(gen: number): boolean;
  switchTo(next: EmbedConversation): void;
  apologize(gen: number, key: 'runFailed' | 'timedOut' | 'sendFailed'): void;
  setMessages: Dispatch<SetStateAction<EmbedMessage[]>>;
  setAlert(alert: string | null): void;
  setStreamText(text: string | null): void;
  /** Thinking ends (for `gen`, if still on screen) and `op` is no longer the running operation. */
  settle(gen: number, op: AbortController): void;
}

/** Apologies stay where they were said when the server's list replaces the conversation. */
function mergeServerList(list: ChatMessage[], previous: EmbedMessage[]): EmbedMessage[] {
  const server = withFeedback(list, previous);
  const apologies = previous.filter((m) => m.local && m.role === 'assistant');
  return [...server, ...apologies].sort((a, b) => a.timestamp - b.timestamp);
}

/**
 * Posts the question with its run (one call; a refusal stores neither); a thread the server no longer
 * knows is replaced by a new one, once.
 */
async function post(chat: SendContext, gen: number, text: string, pendingId: string, externalId: string) {
  const { assistant, shareToken, store } = chat;
  let { threadId, sessionToken } = chat.current.current;
  let sent: { run: ChatRun; posted: ChatMessage };
  try {
    sent = await sendMessageAndRun(visitorAccess(sessionToken), threadId, externalId, text);
  } catch (error) {
    if (!isThreadGoneOnSend(error)) throw error;
    const next = await startEmbedConversation({ assistant, shareToken, sessionToken, store });
    if (!chat.live(gen)) return null;
    const pending = chat.latest.current.messages.find((m) => m.id === pendingId);
    chat.switchTo({ ...next, messages: pending ? [pending] : [] });
    gen = chat.generation.current;
    ({ threadId, sessionToken } = next);
    sent = await sendMessageAndRun(visitorAccess(sessionToken), threadId, externalId, text);
  }
  return { gen, threadId, sessionToken, posted: sent.posted, runId: sent.run.id };
}

/**
 * The question (already shown, as `pending`, with Thinking on) is posted with its run, and the run is
 * followed (stream, else the embed's polling schedule); a completed run reloads the conversation, a
 * failed or late one appends the spec's apology. Thinking ends here.
 */
export async function sendQuestion(
  chat: SendContext,
  gen: number,
  text: string,
  pending: EmbedMessage,
  op: AbortController,
) {
  const { assistant, live, apologize } = chat;
  try {
    let threadId: string;
    let sessionToken: string;
    let runId: string;
    try {
      // The question goes out with its run: without the assistant's external id there is nothing to send.
      if (!assistant.openai_assistant_id) throw new Error('the shared assistant has no external id');
      const sent = await post(chat, gen, text, pending.id, assistant.openai_assistant_id);
      if (!sent || !live(sent.gen)) return;
      ({ gen, threadId, sessionToken, runId } = sent);
      const posted = sent.posted;
      chat.setMessages((all) =>
        all.map((m) => (m.id === pending.id ? fromChatMessage({ ...posted, text: posted.text || text }) : m)),
      );
    } catch (error) {
      // The server's own words for refusals it explains (the conversation's message limit, "still answering"),
      // shown with the apology.
      const said =
        error instanceof ApiError && error.status !== null && error.status < 500 && error.detail
          ? await refusalText(error)
          : null;
      apologize(gen, 'sendFailed');
      if (live(gen) && said) chat.setAlert(said);
      return;
    }
    if (!live(gen)) return;
    const access = visitorAccess(sessionToken);
    let outcome;
    try {
      outcome = await followRun(
        access,
        threadId,
        { id: runId },
        { onDelta: (textSoFar) => live(gen) && chat.setStreamText(textSoFar) },
        embedPolling(),
        op.signal,
      );
    } catch {
      if (!op.signal.aborted) apologize(gen, 'sendFailed');
      return;
    }
    if (!live(gen)) return;
    if (outcome.kind !== 'completed') {
      apologize(gen, outcome.kind === 'failed' ? 'runFailed' : 'timedOut');
      return;
    }
    let list: ChatMessage[] | null = null;
    try {
      list = await listMessages(access, threadId);
    } catch {
      // The stream's end carried the stored answer; show that if the reload failed.
    }
    if (!live(gen)) return;
    const arrived = arrivedAnswers(list, outcome.message, new Set(chat.latest.current.messages.map((m) => m.id)));
    chat.setMessages((all) =>
      list ? mergeServerList(list, all) : [...all, ...arrived.map((m) => fromChatMessage(m))],
    );
    // A fresh answer's redirect opens after 1 s; history never redirects.
    const redirect = freshRedirect(arrived);
    if (redirect)
      chat.timers.current.push(setTimeout(() => chat.mounted.current && openRedirect(redirect), REDIRECT_DELAY_MS));
  } finally {
    chat.settle(gen, op);
  }
}
