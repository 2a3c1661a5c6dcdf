import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunStreamEvent, RunStreamHub } from '../run-stream-hub.js';

export interface RunStreamHubUnderTest {
  /** Where the worker appends. */
  producer: RunStreamHub;
  /** Where the SSE route follows: the same hub in one process, another instance across processes. */
  follower: RunStreamHub;
  /** Resolves once the producer has handed over everything appended so far. */
  settle?: () => Promise<void>;
  teardown: () => Promise<void>;
}

const within = { timeout: 10_000, interval: 10 };
const newRun = () => `run_${randomBytes(12).toString('hex')}`;

function recorder(hub: RunStreamHub, runId: string, afterSeq = 0) {
  const events: RunStreamEvent[] = [];
  const stop = hub.follow(runId, afterSeq, (event) => events.push(event));
  const text = () => events.flatMap((e) => (e.kind === 'delta' ? [e.text] : [])).join('');
  const ended = () => events.at(-1)?.kind === 'end';
  return { events, stop, text, ended };
}

/**
 * What every RunStreamHub adapter must do, whatever carries the pieces: a follower sees the answer's
 * pieces in order, with increasing sequence numbers, then one end; what it reads adds up to exactly what
 * the worker produced; resuming after a sequence number replays only what follows it.
 */
export function runStreamHubContract(name: string, setup: () => Promise<RunStreamHubUnderTest>, gate = { available: true } as { available: boolean; reason?: string }) {
  describe.skipIf(!gate.available)(`RunStreamHub contract: ${name}${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
    let hub: RunStreamHubUnderTest;
    beforeAll(async () => {
      hub = await setup();
    });
    afterAll(async () => hub?.teardown());

    it('delivers the pieces in order with increasing sequence numbers, then one end', async () => {
      const runId = newRun();
      const seen = recorder(hub.follower, runId);
      const pieces = Array.from({ length: 200 }, (_, i) => `word${i} `);
      for (const piece of pieces) hub.producer.append(runId, piece);
      hub.producer.end(runId);
      hub.producer.append(runId, 'after the end');
      await expect.poll(seen.ended, within).toBe(true);
      expect(seen.text()).toBe(pieces.join(''));
      const seqs = seen.events.flatMap((e) => (e.kind === 'delta' ? [e.seq] : []));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(seen.events.filter((e) => e.kind === 'end')).toHaveLength(1);
      seen.stop();
    });

    it('keeps runs apart, and carries long Hebrew pieces whole', async () => {
      const [a, b] = [newRun(), newRun()];
      const seenA = recorder(hub.follower, a);
      const seenB = recorder(hub.follower, b);
      const long = 'שלום עולם, זו תשובה ארוכה מאוד עם "מרכאות" ו\\לוכסנים\\ ואימוג׳י 🍞. '.repeat(400);
      hub.producer.append(a, long);
      hub.producer.append(b, 'short');
      hub.producer.end(b);
      hub.producer.end(a);
      await expect.poll(() => seenA.ended() && seenB.ended(), within).toBe(true);
      expect(seenA.text()).toBe(long);
      expect(seenB.text()).toBe('short');
    });

    it('replays to a follower that comes later, and resumes after the last event id it has', async () => {
      const runId = newRun();
      const live = recorder(hub.follower, runId);
      ['One ', 'two ', 'three ', 'four'].forEach((piece) => hub.producer.append(runId, piece));
      hub.producer.end(runId);
      await hub.settle?.();
      await expect.poll(live.ended, within).toBe(true);

      const late = recorder(hub.follower, runId);
      expect(late.text()).toBe('One two three four');
      expect(late.ended()).toBe(true);

      const first = live.events[0]!;
      expect(first.kind).toBe('delta');
      const resumed = recorder(hub.follower, runId, 1);
      expect(first.kind === 'delta' && first.text + resumed.text()).toBe('One two three four');
      expect(resumed.events.every((e) => e.kind === 'end' || e.seq > 1)).toBe(true);
    });

    it('ends a run that produced nothing (failed before its first word, or expired)', async () => {
      const runId = newRun();
      const seen = recorder(hub.follower, runId);
      hub.producer.end(runId);
      await expect.poll(seen.ended, within).toBe(true);
      expect(seen.events).toEqual([{ kind: 'end' }]);
    });

    it("ends with the worker's recorded outcome, for followers before and after the end", async () => {
      const runId = newRun();
      const outcome = {
        status: 'completed' as const,
        message: { id: 'msg_1', text: 'פתוח עד 19:00.', sources: [{ fileId: 'file_1', filename: 'שעות.txt', sourceUrl: null, section: 'שעות' }], createdAt: 1_795_000_000 },
        position: { commit: '900', prepare: '9000' },
      };
      const early = recorder(hub.follower, runId);
      hub.producer.append(runId, 'פתוח עד 19:00.');
      hub.producer.end(runId, outcome);
      await hub.settle?.();
      await expect.poll(early.ended, within).toBe(true);
      expect(early.events.at(-1)).toEqual({ kind: 'end', outcome });
      const late = recorder(hub.follower, runId);
      expect(late.events.at(-1)).toEqual({ kind: 'end', outcome });
      expect(late.text()).toBe('פתוח עד 19:00.');
    });
  });
}
