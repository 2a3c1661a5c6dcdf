import type { ChatMessage, ChatSource } from '@/lib/chat-core/chat-messages';
import type { Rating, StoredMessage } from './conversation-store';

/** A message as the embed page shows it. */
export interface EmbedMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  /** Milliseconds. */
  timestamp: number;
  redirectUrl: string | null;
  /** Where an answer came from (the files or pages it quotes), shown under it once. */
  sources: ChatSource[];
  /** Shown only here: the question before the server has it, or an apology (spec §8); never stored or rated. */
  local: boolean;
  feedback: Rating | null;
}

let nextLocalId = 0;

export function localMessage(role: EmbedMessage['role'], text: string, now: number = Date.now()): EmbedMessage {
  return {
    id: `local-${++nextLocalId}`,
    role,
    text,
    timestamp: now,
    redirectUrl: null,
    sources: [],
    local: true,
    feedback: null,
  };
}

export const fromChatMessage = (message: ChatMessage, feedback: Rating | null = null): EmbedMessage => ({
  id: message.id,
  role: message.role,
  text: message.text,
  timestamp: message.timestamp,
  redirectUrl: message.redirectUrl,
  sources: message.sources,
  local: false,
  feedback,
});

export const fromStored = (message: StoredMessage): EmbedMessage => ({
  id: message.id,
  role: message.role,
  text: message.content,
  timestamp: message.timestamp,
  redirectUrl: message.redirectUrl ?? null,
  sources: message.sources ?? [],
  local: false,
  feedback: message.feedback ?? null,
});

export function toStored(messages: EmbedMessage[]): StoredMessage[] {
  return messages
    .filter((m) => !m.local)
    .map((m) => ({
      id: m.id,
      role: m.role,
      content: m.text,
      timestamp: m.timestamp,
      hasRedirect: m.redirectUrl !== null,
      redirectUrl: m.redirectUrl,
      ...(m.sources.length ? { sources: m.sources } : {}),
      ...(m.feedback ? { feedback: m.feedback } : {}),
    }));
}

/** The server's list (authoritative), keeping the ratings this visitor already gave. */
export function withFeedback(
  list: ChatMessage[],
  previous: { id: string; feedback?: Rating | null }[],
): EmbedMessage[] {
  const given = new Map(previous.filter((m) => m.feedback).map((m) => [m.id, m.feedback!]));
  return list.map((m) => fromChatMessage(m, given.get(m.id) ?? null));
}
