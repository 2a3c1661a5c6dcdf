/** The owner's view of conversations (Chat History); the shapes both chats share are in lib/chat-core. */
export interface ChatThread {
  id: string;
  title: string;
  createdAt: number;
  /** A visitor's conversation (share link, widget, …): the owner reads, renames and deletes it, but does not write in it. */
  isPublic: boolean;
  assistantId: number;
  /** Where it happens: `app` (the owner's own chat), `public_link`, `embed`, … */
  channel: string;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
const num = (value: unknown, fallback = 0) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

export function toChatThread(value: unknown): ChatThread {
  const t = obj(value);
  const isPublic = t.is_public === true;
  return {
    id: str(t.id ?? t.thread_id),
    title: str(t.title),
    createdAt: num(t.created_at) * 1000,
    isPublic,
    assistantId: num(t.assistant_id),
    channel: str(t.channel, isPublic ? 'public_link' : 'app'),
  };
}
