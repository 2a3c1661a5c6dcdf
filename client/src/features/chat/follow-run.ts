import type { ChatAccess } from '@/lib/chat-core/chat-access';
import type { ChatRun } from '@/lib/chat-core/chat-messages';
import {
  followRun as followSharedRun,
  type RunRef,
  type PollDeps,
  type PollSchedule,
  pollRun as pollSharedRun,
  type RunEnd,
} from '@/lib/chat-core/follow-run';
import { networkRetryDelay, POLL_MAX_ATTEMPTS, pollDelay } from './chat-rules';

/** How a run ended, as the chat shows it ('timeout': 100 checks without a settled run (§9), or the running reset). */
export type RunOutcome = RunEnd;
export type { PollDeps };

/**
 * The polling schedule of the signed-in chat (§9): at most 100 checks; normally the wait grows from
 * 300 ms ×1.5 every 3 checks up to 2 s; after network errors it restarts from 1 s, doubling every 5
 * failures in a row up to 5 s. Other errors (a 404, a 500) end the follow: the caller reports them.
 */
export const chatPolling: PollSchedule = {
  maxAttempts: POLL_MAX_ATTEMPTS,
  delay: pollDelay,
  retryDelay: networkRetryDelay,
};

export const pollRun = (deps: PollDeps, signal: AbortSignal) => pollSharedRun(deps, chatPolling, signal);

/** Follows a run: the SSE stream first (the answer grows word by word through `onDelta`), polling on the chat's schedule otherwise. */
export const followRun = (
  access: ChatAccess,
  threadId: string,
  run: RunRef,
  handlers: { onDelta: (textSoFar: string) => void; onStatus: (run: ChatRun) => void },
  signal: AbortSignal,
) => followSharedRun(access, threadId, run, handlers, chatPolling, signal);
