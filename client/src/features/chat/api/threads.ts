import { api } from '@/lib/api-client';
import type { StartedThread } from '@/lib/chat-core/chat-calls';
import { type ChatThread, toChatThread } from './chat-types';

/** The owner's own thread calls (start, Chat History, rename, delete); the calls both chats make are in lib/chat-core. */
const enc = encodeURIComponent;

/** POST /threads/ (owner) */
export async function startOwnerThread(assistantId: number | string): Promise<StartedThread> {
  const body = (await api.post<{ thread_id: string }>('/threads/', null, {
    body: { assistant_id: Number(assistantId) },
  }))!;
  return { threadId: body.thread_id, sessionToken: null };
}

/** Chat History (owner only): an assistant's conversations, newest first, visitors' included. */
export async function listThreads(assistantId: number | string, signal?: AbortSignal): Promise<ChatThread[]> {
  const body = await api.get<unknown[]>(`/assistants/${enc(String(assistantId))}/threads`, null, { signal });
  return (body ?? []).map(toChatThread);
}

/** GET /threads/{id} (owner): one conversation, the owner's own or a visitor's with one of their assistants. */
export async function getThread(threadId: string, signal?: AbortSignal): Promise<ChatThread> {
  return toChatThread(await api.get<unknown>(`/threads/${enc(threadId)}`, null, { signal }));
}

/** The cache key of one conversation's description (the owner's chat reads it; Chat History seeds it). */
export const threadKey = (threadId: string) => ['thread', threadId] as const;

export async function renameThread(threadId: string, title: string): Promise<ChatThread> {
  return toChatThread(await api.patch<unknown>(`/threads/${enc(threadId)}`, null, { body: { title } }));
}

export async function deleteThread(threadId: string): Promise<void> {
  await api.delete(`/threads/${enc(threadId)}`);
}
