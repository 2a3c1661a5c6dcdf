import { parseRedirect } from '@kesher/contracts/rules/chat';

/**
 * The chat's client-side shapes (owner and visitor chat alike), checked by hand: these modules also run in the visitor bundle, which
 * does not load zod. The server's shapes are in contracts/src/http/threads.dto.ts.
 */
export type RunStatus = 'queued' | 'in_progress' | 'requires_action' | 'completed' | 'failed' | 'expired';
export const SETTLED: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'expired']);

export interface ChatSource {
  fileId: string;
  filename: string;
  sourceUrl: string | null;
  /** A crawled page's title when the server knows it (the chat names the page by it). */
  title?: string | null;
}

/** A message as the chat shows it (spec §3 Message): the redirect marker already split off. */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  /** Milliseconds (the server sends created_at in seconds). */
  timestamp: number;
  runId: string | null;
  sources: ChatSource[];
  hasRedirect: boolean;
  redirectUrl: string | null;
}

export interface ChatRun {
  id: string;
  status: RunStatus;
  /** last_error.message of a failed or expired run. */
  error: string | null;
  messageId: string | null;
  /** The owner's run, as created: what opens its stream without the bearer token (the server reads less). */
  streamGrant?: string;
}

type Json = Record<string, unknown>;
const INLINE_REDIRECT = /\[REDIRECT:\s*(https?:\/\/[^\s\]]+)\s*\]/;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
const num = (value: unknown, fallback = 0) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/** The server form (content: a list whose first item has text.value) or plain content (spec §3). */
export function toChatMessage(value: unknown): ChatMessage {
  const m = obj(value);
  const content = Array.isArray(m.content) ? str(obj(obj(m.content[0]).text).value) : str(m.content);
  const role = m.role === 'assistant' ? 'assistant' : 'user';
  const parsed = role === 'assistant' ? parseRedirect(content) : { text: content, redirectUrl: null };
  const text = parsed.text;
  // A command a model put mid-line still becomes the button (the renderer hides its text: message-display.tsx).
  const redirectUrl =
    parsed.redirectUrl ?? (role === 'assistant' ? (INLINE_REDIRECT.exec(content)?.[1] ?? null) : null);
  return {
    id: str(m.id),
    role,
    text,
    timestamp: num(m.created_at) * 1000,
    runId: typeof m.run_id === 'string' ? m.run_id : null,
    sources: (Array.isArray(m.sources) ? m.sources : []).map((s) => {
      const source = obj(s);
      const title = typeof source.title === 'string' && source.title.trim() ? source.title : null;
      return {
        fileId: str(source.file_id),
        filename: str(source.filename),
        sourceUrl: typeof source.source_url === 'string' ? source.source_url : null,
        ...(title ? { title } : {}),
      };
    }),
    hasRedirect: redirectUrl !== null,
    redirectUrl,
  };
}

const STATUSES: ReadonlySet<string> = new Set([
  'queued',
  'in_progress',
  'requires_action',
  'completed',
  'failed',
  'expired',
]);

export function toChatRun(value: unknown): ChatRun {
  const r = obj(value);
  const status = typeof r.status === 'string' && STATUSES.has(r.status) ? (r.status as RunStatus) : 'queued';
  const error = r.last_error ? str(obj(r.last_error).message) || null : null;
  return {
    id: str(r.id ?? r.run_id),
    status,
    error,
    messageId: typeof r.message_id === 'string' ? r.message_id : null,
    ...(typeof r.stream_grant === 'string' && r.stream_grant ? { streamGrant: r.stream_grant } : {}),
  };
}
