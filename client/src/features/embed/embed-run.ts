import type { ChatAccess } from '@/features/chat/api/chat-access';
import type { ChatMessage, ChatRun } from '@/features/chat/api/chat-types';
import { streamRun } from '@/features/chat/api/stream-run';
import { getRun } from '@/features/chat/api/threads';

/**
 * How the embed page waits for an answer (spec part 2 §4, §9): the SSE stream first; when it is not
 * available, polling on the embed's own schedule — first check after 300 ms, then each wait 1.5 times
 * the last, capped at 2000 ms, plus up to 10 % random jitter (so many visitors' widgets do not poll in
 * step), at most 45 checks.
 */
export const EMBED_POLL_FIRST_MS = 300;
export const EMBED_POLL_GROWTH = 1.5;
export const EMBED_POLL_MAX_MS = 2000;
export const EMBED_POLL_JITTER = 0.1;
export const EMBED_POLL_MAX_ATTEMPTS = 45;

/** The wait before check number `attempt` (0-based); `random` in [0, 1) picks the jitter. */
export function embedPollDelay(attempt: number, random: number = Math.random()): number {
  if (attempt <= 0) return EMBED_POLL_FIRST_MS;
  const base = Math.min(EMBED_POLL_MAX_MS, EMBED_POLL_FIRST_MS * EMBED_POLL_GROWTH ** attempt);
  return Math.round(base * (1 + EMBED_POLL_JITTER * Math.min(1, Math.max(0, random))));
}

/** The whole schedule: one wait per check. */
export function embedPollSchedule(random: () => number = Math.random): number[] {
  return Array.from({ length: EMBED_POLL_MAX_ATTEMPTS }, (_, attempt) => embedPollDelay(attempt, random()));
}

export type EmbedRunOutcome =
  | { kind: 'completed'; message: ChatMessage | null }
  | { kind: 'failed' }
  /** The server gave up on the run (its deadline), or 45 checks went by without an end. */
  | { kind: 'timeout' };

export interface EmbedPollDeps {
  check: (signal: AbortSignal) => Promise<ChatRun>;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

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

/** Polls the run until it settles. A failing check ends the wait: the caller apologises (spec §8). */
export async function pollEmbedRun(deps: EmbedPollDeps, signal: AbortSignal): Promise<EmbedRunOutcome> {
  const random = deps.random ?? Math.random;
  for (let attempt = 0; attempt < EMBED_POLL_MAX_ATTEMPTS; attempt++) {
    await deps.sleep(embedPollDelay(attempt, random()), signal);
    const run = await deps.check(signal);
    if (run.status === 'completed') return { kind: 'completed', message: null };
    if (run.status === 'failed') return { kind: 'failed' };
    if (run.status === 'expired') return { kind: 'timeout' };
  }
  return { kind: 'timeout' };
}

/** Follows a run: the stream (the answer grows through `onDelta`), or polling when the stream is unavailable. */
export async function followEmbedRun(
  access: ChatAccess,
  threadId: string,
  runId: string,
  onDelta: (textSoFar: string) => void,
  signal: AbortSignal,
): Promise<EmbedRunOutcome> {
  const streamed = await streamRun(access, threadId, runId, onDelta, signal);
  if (signal.aborted) throw signal.reason;
  if (streamed.kind === 'completed') return { kind: 'completed', message: streamed.message };
  if (streamed.kind === 'failed') return { kind: 'failed' };
  if (streamed.kind === 'expired') return { kind: 'timeout' };
  return pollEmbedRun({ check: (s) => getRun(access, threadId, runId, s), sleep: abortableSleep }, signal);
}
