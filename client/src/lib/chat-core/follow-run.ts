import { ApiError } from '@/lib/api-error-base';
import type { ChatAccess } from './chat-access';
import { getRun } from './run-calls';
import { type ChatMessage, type ChatRun, SETTLED } from './chat-messages';
import { streamRun } from './stream-run';

/** The run to follow: its id, and for the owner's fresh run the grant that opens its stream. */
export type RunRef = Pick<ChatRun, 'id' | 'streamGrant'>;

/** How a followed run ended. */
export type RunEnd =
  | { kind: 'completed'; messageId: string | null; message: ChatMessage | null }
  | { kind: 'failed'; error: string }
  | { kind: 'expired' }
  /** The schedule's checks ran out without a settled run. */
  | { kind: 'timeout' };

/** A chat's polling schedule, for when the stream is not available (each chat has the spec's own). */
export interface PollSchedule {
  maxAttempts: number;
  /** The wait before the next check, given how many checks were answered so far. */
  delay(answered: number): number;
  /** After the `failures`-th network error in a row: wait this long and check again. Absent, the error ends the follow. */
  retryDelay?(failures: number): number;
}

export interface PollDeps {
  check: (signal: AbortSignal) => Promise<ChatRun>;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  onStatus?: (run: ChatRun) => void;
}

const isNetworkError = (error: unknown) =>
  error instanceof ApiError && (error.code === 'network' || error.code === 'timeout');

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Checks the run on `schedule` until it settles. Errors other than retried network errors end the follow: the caller reports them. */
export async function pollRun(deps: PollDeps, schedule: PollSchedule, signal: AbortSignal): Promise<RunEnd> {
  let answered = 0;
  let failures = 0;
  let wait = schedule.delay(0);
  for (let attempt = 0; attempt < schedule.maxAttempts; attempt++) {
    await deps.sleep(wait, signal);
    let run: ChatRun;
    try {
      run = await deps.check(signal);
    } catch (error) {
      if (!schedule.retryDelay || !isNetworkError(error) || signal.aborted) throw error;
      wait = schedule.retryDelay(failures++);
      continue;
    }
    failures = 0;
    deps.onStatus?.(run);
    if (SETTLED.has(run.status)) {
      if (run.status === 'completed') return { kind: 'completed', messageId: run.messageId, message: null };
      if (run.status === 'failed') return { kind: 'failed', error: run.error ?? '' };
      return { kind: 'expired' };
    }
    wait = schedule.delay(++answered);
  }
  return { kind: 'timeout' };
}

/**
 * Follows a run, for the owner's chat and the visitor's alike: the SSE stream first (the answer grows
 * through `onDelta`), then polling on the chat's schedule when the stream is unavailable or breaks off.
 */
export async function followRun(
  access: ChatAccess,
  threadId: string,
  run: RunRef,
  handlers: { onDelta: (textSoFar: string) => void; onStatus?: (run: ChatRun) => void },
  schedule: PollSchedule,
  signal: AbortSignal,
): Promise<RunEnd> {
  const runId = run.id;
  const streamed = await streamRun(access, threadId, runId, handlers.onDelta, signal, run.streamGrant);
  if (signal.aborted) throw signal.reason;
  if (streamed.kind === 'completed')
    return { kind: 'completed', messageId: streamed.message?.id ?? null, message: streamed.message };
  if (streamed.kind === 'failed') return { kind: 'failed', error: streamed.error };
  if (streamed.kind === 'expired') return { kind: 'expired' };
  return pollRun(
    { check: (s) => getRun(access, threadId, runId, s), sleep: abortableSleep, onStatus: handlers.onStatus },
    schedule,
    signal,
  );
}

/**
 * The answers a completed run brought: the assistant messages of the reloaded list (or, when the reload
 * failed, the message the stream ended with) that were not on screen before. Their redirect marker, if
 * any, is the one that opens (a fresh answer's; history never redirects).
 */
export function arrivedAnswers(
  list: ChatMessage[] | null,
  streamed: ChatMessage | null,
  known: ReadonlySet<string>,
): ChatMessage[] {
  return (list ?? (streamed ? [streamed] : [])).filter((m) => m.role === 'assistant' && !known.has(m.id));
}

export const freshRedirect = (arrived: ChatMessage[]) =>
  [...arrived].reverse().find((m) => m.redirectUrl)?.redirectUrl ?? null;
