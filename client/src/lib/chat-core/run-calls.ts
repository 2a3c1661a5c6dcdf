import { chatMessages } from '@kesher/contracts/rules/chat';
import { api } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error-base';
import { type ChatAccess, sessionBody, sessionQuery, threadsBase } from './chat-access';
import { type ChatMessage, type ChatRun, toChatMessage, toChatRun } from './chat-messages';

/*
 * The chat's send and its run (spec §4 "Chat send", part 1 §7 Runs): apart from chat-calls.ts so that the
 * embed page's first load, which only starts or reads a conversation, does not carry them.
 */
const enc = encodeURIComponent;

/** The stand-in for a posted message the server's answer lacked (it always sends one): the UI never breaks on it. */
const localPosted = (content: string, runId: string): ChatMessage => ({
  id: `local-${runId || Date.now()}`,
  role: 'user',
  text: content,
  timestamp: Date.now(),
  runId: null,
  sources: [],
  hasRedirect: false,
  redirectUrl: null,
});

/**
 * The chat's send (spec §4 "Chat send"): the chatter's message goes with the run as OpenAI's
 * `additional_messages`, so posting it and asking for the answer is one call. The server refuses it with
 * exactly what POST …/messages would have said, and a refusal stores neither, so callers treat any error
 * as "the message was not posted". `externalAssistantId` is the assistant's `openai_assistant_id` (asst_…).
 */
export async function sendMessageAndRun(
  access: ChatAccess,
  threadId: string,
  externalAssistantId: string,
  content: string,
): Promise<{ run: ChatRun; posted: ChatMessage }> {
  const body = await api.post<unknown>(`${threadsBase(access)}/${enc(threadId)}/runs`, null, {
    body: {
      assistant_id: externalAssistantId,
      additional_messages: [{ role: 'user', content }],
      ...sessionBody(access),
    },
  });
  const run = toChatRun(body);
  const stored = (body as { user_message?: { id?: unknown } } | null)?.user_message;
  return {
    run,
    posted: typeof stored?.id === 'string' && stored.id ? toChatMessage(stored) : localPosted(content, run.id),
  };
}

/**
 * Whether a refused send says the thread is gone (404 THREAD_NOT_FOUND, 400 THREAD_INVALID, or a bare
 * 404/400), so the chat may start a fresh one. The run part of the same call is refused with other words
 * (404 "Assistant not found…", 400 "Invalid assistant ID"), which a fresh thread would not mend: those are
 * shown as they are, as a refused run was before the send became one call.
 */
export const isThreadGoneOnSend = (error: unknown) =>
  error instanceof ApiError &&
  (error.status === 404 || error.status === 400) &&
  (!error.detail || error.detail === chatMessages.threadNotFound || error.detail === chatMessages.threadInvalid);

export async function getRun(
  access: ChatAccess,
  threadId: string,
  runId: string,
  signal?: AbortSignal,
): Promise<ChatRun> {
  return toChatRun(
    await api.get<unknown>(`${threadsBase(access)}/${enc(threadId)}/runs/${enc(runId)}${sessionQuery(access)}`, null, {
      signal,
    }),
  );
}

/** The stream's URL (SSE; see stream-run.ts). */
export const runStreamUrl = (access: ChatAccess, threadId: string, runId: string) =>
  `${threadsBase(access)}/${enc(threadId)}/runs/${enc(runId)}/stream${sessionQuery(access)}`;
