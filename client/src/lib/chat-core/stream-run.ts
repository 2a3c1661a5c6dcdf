import { API_BASE } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';
import type { ChatAccess } from './chat-access';
import { runStreamUrl } from './run-calls';
import { type ChatMessage, toChatMessage } from './chat-messages';
import { createSseParser } from './sse-parser';

export type StreamEnd =
  | { kind: 'completed'; message: ChatMessage | null }
  | { kind: 'failed' | 'expired'; error: string }
  /** The stream could not be opened or broke off: the caller falls back to polling. */
  | { kind: 'unavailable' };

/**
 * Follows a run's answer over SSE (GET …/runs/{id}/stream). Uses fetch rather than EventSource because
 * the owner's calls carry a bearer header, which EventSource cannot send. With the run's grant (the
 * owner's run, as created) the grant goes instead of the bearer token: the server opens the stream on it
 * without reading the session or the conversation. `onDelta` receives the text so far; the promise ends
 * with the stored outcome, or `unavailable` so the caller can poll instead.
 */
export async function streamRun(
  access: ChatAccess,
  threadId: string,
  runId: string,
  onDelta: (textSoFar: string) => void,
  signal?: AbortSignal,
  streamGrant?: string,
): Promise<StreamEnd> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'X-Requested-With': 'XMLHttpRequest' };
  const token = access.kind === 'owner' && !streamGrant ? tokenStorage.get() : null;
  if (streamGrant) headers['X-Run-Grant'] = streamGrant;
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${runStreamUrl(access, threadId, runId)}`, {
      headers,
      signal,
      credentials: 'omit',
    });
  } catch {
    return { kind: 'unavailable' };
  }
  if (!response.ok || !response.body) return { kind: 'unavailable' };

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = createSseParser();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { kind: 'unavailable' };
      for (const { event, data } of parser.push(value)) {
        const payload = data ? (JSON.parse(data) as Record<string, unknown>) : {};
        if (event === 'delta') {
          text += typeof payload.text === 'string' ? payload.text : '';
          onDelta(text);
        } else if (event === 'completed') {
          return { kind: 'completed', message: payload.message ? toChatMessage(payload.message) : null };
        } else if (event === 'failed' || event === 'expired') {
          return {
            kind: event,
            error: typeof payload.message === 'string' ? payload.message : 'Unknown error occurred',
          };
        }
      }
    }
  } catch {
    return { kind: 'unavailable' };
  } finally {
    reader.cancel().catch(() => {});
  }
}
