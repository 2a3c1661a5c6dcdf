import { describe, expect, it, vi } from 'vitest';
import type { ChatRun, RunStatus } from '@/lib/chat-core/chat-messages';
import { pollRun, type PollDeps } from '@/lib/chat-core/follow-run';
import { EMBED_POLL_MAX_ATTEMPTS, embedPollDelay, embedPolling, embedPollSchedule } from './embed-run';

/** The shared follower's polling on the embed's schedule. */
const pollEmbedRun = (deps: PollDeps & { random?: () => number }, signal: AbortSignal) =>
  pollRun(deps, embedPolling(deps.random), signal);

const run = (status: RunStatus): ChatRun => ({ id: 'run_1', status, error: null, messageId: null });

/** Deterministic deps: every wait is recorded, never slept. */
function deps(statuses: RunStatus[], random = () => 0.5) {
  const waits: number[] = [];
  let checks = 0;
  return {
    waits,
    checks: () => checks,
    deps: {
      sleep: async (ms: number) => void waits.push(ms),
      check: async () => run(statuses[Math.min(checks++, statuses.length - 1)]!),
      random,
    },
  };
}

describe('the embed polling schedule (spec part 2 §9)', () => {
  it('checks first after 300 ms, then grows ×1.5 per attempt up to 2000 ms (without jitter)', () => {
    const base = Array.from({ length: 8 }, (_, i) => embedPollDelay(i, 0));
    expect(base).toEqual([300, 450, 675, 1013, 1519, 2000, 2000, 2000]);
  });

  it('adds at most 10 % jitter on top of the capped delay', () => {
    expect(embedPollDelay(1, 0.999999)).toBe(Math.round(450 * 1.1));
    expect(embedPollDelay(10, 0.999999)).toBe(2200);
    for (let attempt = 1; attempt < EMBED_POLL_MAX_ATTEMPTS; attempt++) {
      const base = Math.min(2000, 300 * 1.5 ** attempt);
      for (const random of [0, 0.25, 0.5, 0.75, 0.9999]) {
        const delay = embedPollDelay(attempt, random);
        expect(delay).toBeGreaterThanOrEqual(Math.round(base));
        expect(delay).toBeLessThanOrEqual(Math.round(base * 1.1));
      }
    }
  });

  it('jitters with Math.random by default and keeps every delay within its band', () => {
    const schedule = embedPollSchedule();
    expect(schedule).toHaveLength(45);
    expect(schedule[0]).toBe(300);
    schedule.slice(1).forEach((delay, i) => {
      const base = Math.min(2000, 300 * 1.5 ** (i + 1));
      expect(delay / base).toBeGreaterThanOrEqual(0.999);
      expect(delay / base).toBeLessThanOrEqual(1.101);
    });
    expect(new Set(embedPollSchedule().slice(6)).size).toBeGreaterThan(1); // really random
  });

  it('gives up after exactly 45 checks of a run that never settles', async () => {
    const d = deps(['in_progress']);
    await expect(pollEmbedRun(d.deps, new AbortController().signal)).resolves.toEqual({ kind: 'timeout' });
    expect(d.checks()).toBe(45);
    expect(d.waits).toEqual(embedPollSchedule(() => 0.5));
  });

  it('ends on completed, failed and expired', async () => {
    const done = deps(['queued', 'in_progress', 'completed']);
    await expect(pollEmbedRun(done.deps, new AbortController().signal)).resolves.toEqual({
      kind: 'completed',
      messageId: null,
      message: null,
    });
    expect(done.checks()).toBe(3);
    expect(done.waits).toEqual([300, 473, 709]); // 450·1.05, 675·1.05

    await expect(pollEmbedRun(deps(['failed']).deps, new AbortController().signal)).resolves.toEqual({
      kind: 'failed',
      error: '',
    });
    await expect(
      pollEmbedRun(deps(['requires_action', 'expired']).deps, new AbortController().signal),
    ).resolves.toEqual({ kind: 'expired' });
  });

  it('lets a failing check end the wait (the page apologises)', async () => {
    const check = vi.fn().mockRejectedValue(new Error('network'));
    await expect(pollEmbedRun({ check, sleep: async () => {} }, new AbortController().signal)).rejects.toThrow(
      'network',
    );
    expect(check).toHaveBeenCalledTimes(1);
  });
});
