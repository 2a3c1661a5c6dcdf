import type { ChatAccess } from './api/chat-access';
import { type ChatMessage, type ChatRun, SETTLED } from './api/chat-types';
import { streamRun } from './api/stream-run';
import { getRun } from './api/threads';
import { isNetworkError, networkRetryDelay, POLL_MAX_ATTEMPTS, pollDelay } from './chat-rules';

/** How a run ended, as the chat shows it. */
export type RunOutcome =
  | { kind: 'completed'; messageId: string | null; message: ChatMessage | null }
  | { kind: 'failed'; error: string }
  | { kind: 'expired' }
  /** 100 checks without a settled run (§9), or the running reset. */
  | { kind: 'timeout' };

export interface PollDeps {
  check: (signal: AbortSignal) => Promise<ChatRun>;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  onStatus?: (run: ChatRun) => void;
}

export const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The polling schedule of the signed-in chat (§9): at most 100 checks; normally the wait grows from
 * 300 ms ×1.5 every 3 checks up to 2 s; after network errors it restarts from 1 s, doubling every 5
 * failures in a row up to 5 s. Other errors (a 404, a 500) end the follow: the caller reports them.
 */
export async function pollRun(deps: PollDeps, signal: AbortSignal): Promise<RunOutcome> {
  let answered = 0;
  let failures = 0;
  let wait = pollDelay(0);
  for (let attempt = 0; attempt < POLL_MAX_ATTEMPTS; attempt++) {
    await deps.sleep(wait, signal);
    let run: ChatRun;
    try {
      run = await deps.check(signal);
    } catch (error) {
      if (!isNetworkError(error) || signal.aborted) throw error;
      wait = networkRetryDelay(failures++);
      continue;
    }
    failures = 0;
    deps.onStatus?.(run);
    if (SETTLED.has(run.status)) {
      if (run.status === 'completed') return { kind: 'completed', messageId: run.messageId, message: null };
      if (run.status === 'failed') return { kind: 'failed', error: run.error ?? '' };
      return { kind: 'expired' };
    }
    wait = pollDelay(++answered);
  }
  return { kind: 'timeout' };
}

/**
 * Follows a run: the SSE stream first (the answer grows word by word through `onDelta`), polling when
 * the stream is not available or breaks off.
 */
export async function followRun(
  access: ChatAccess,
  threadId: string,
  runId: string,
  handlers: { onDelta: (textSoFar: string) => void; onStatus: (run: ChatRun) => void },
  signal: AbortSignal,
): Promise<RunOutcome> {
  const streamed = await streamRun(access, threadId, runId, handlers.onDelta, signal);
  if (signal.aborted) throw signal.reason;
  if (streamed.kind === 'completed') return { kind: 'completed', messageId: streamed.message?.id ?? null, message: streamed.message };
  if (streamed.kind === 'failed') return { kind: 'failed', error: streamed.error };
  if (streamed.kind === 'expired') return { kind: 'expired' };
  return pollRun({ check: (s) => getRun(access, threadId, runId, s), sleep: abortableSleep, onStatus: handlers.onStatus }, signal);
}
