import type { PollSchedule } from '@/lib/chat-core/follow-run';

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

/**
 * The embed's schedule for the shared follower (lib/chat-core/follow-run.ts): no retries, a failing
 * check ends the wait and the page apologises (spec §8); a run the server gave up on (expired) or 45
 * checks without an end read as a late answer.
 */
export const embedPolling = (random: () => number = Math.random): PollSchedule => ({
  maxAttempts: EMBED_POLL_MAX_ATTEMPTS,
  delay: (attempt) => embedPollDelay(attempt, random()),
});
