import { api } from '@/lib/api-client';
import { type ChatAccess, isVisitor, sessionBody, sessionQuery, threadsBase } from './chat-access';
import { type ChatMessage, toChatMessage } from './chat-messages';

/**
 * The chat's HTTP calls (spec part 1 §7 Threads, part 2 §7 "Chat calls used by the embed page"), for
 * the owner and for visitors alike: starting a thread, reading it, rating an answer. Sending and its run
 * are in run-calls.ts, which the embed loads only when the visitor types. Errors are the API module's
 * ApiError (status + server detail).
 */
const enc = encodeURIComponent;

export interface StartedThread {
  threadId: string;
  /** Visitors only: the token every later call on this thread must carry (issued when none was sent). */
  sessionToken: string | null;
}

/** POST /threads/public: needs the assistant's current share token; the session token is optional. */
export async function startVisitorThread(input: {
  assistantId: number | string;
  shareToken: string;
  sessionToken?: string;
  channel: 'public_link' | 'embed';
}): Promise<StartedThread> {
  const body = (await api.post<{ thread_id: string; session_token?: string }>('/threads/public', null, {
    body: {
      assistant_id: Number(input.assistantId),
      share_token: input.shareToken,
      session_token: input.sessionToken,
      channel: input.channel,
    },
  }))!;
  return { threadId: body.thread_id, sessionToken: body.session_token ?? input.sessionToken ?? null };
}

export async function listMessages(access: ChatAccess, threadId: string, signal?: AbortSignal): Promise<ChatMessage[]> {
  const body = await api.get<{ data?: unknown[] }>(
    `${threadsBase(access)}/${enc(threadId)}/messages${sessionQuery(access)}`,
    null,
    { signal },
  );
  return (body?.data ?? []).map(toChatMessage);
}

export interface FeedbackInput {
  assistantId: number | string;
  threadId: string;
  messageId: string;
  rating: 'like' | 'dislike';
  comment?: string | null;
  source?: string;
}

/** POST /feedback or /feedback/public: a second rating of the same message replaces the first. */
export async function sendFeedback(access: ChatAccess, input: FeedbackInput): Promise<void> {
  await api.post(isVisitor(access) ? '/feedback/public' : '/feedback', null, {
    body: {
      assistant_id: String(input.assistantId),
      thread_id: input.threadId,
      message_id: input.messageId,
      rating: input.rating,
      comment: input.comment ?? null,
      source: input.source ?? 'chat',
      is_public: isVisitor(access),
      ...sessionBody(access),
    },
  });
}
