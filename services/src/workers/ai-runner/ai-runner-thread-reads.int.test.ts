import { streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { askOnThread, ownerThread } from './testing/owner-thread.js';

const gate = await postgresAvailability();

/** Answers at once, or — while `hold` is set — only once the test lets it go (to write to the thread meanwhile). */
function heldProvider() {
  let hold: { asked: () => void; release: Promise<void> } | undefined;
  const provider: AnswerProvider = {
    name: 'held',
    async *answer() {
      const current = hold;
      if (current) {
        current.asked();
        await current.release;
      }
      yield { kind: 'text', text: 'An answer.' };
    },
  };
  return {
    provider,
    /** The next answer waits: resolves `asked` once the model is asked, and goes on when `release` is called. */
    holdNext() {
      let release!: () => void;
      let asked!: () => void;
      const askedP = new Promise<void>((resolve) => (asked = resolve));
      hold = { asked, release: new Promise<void>((resolve) => (release = resolve)) };
      return {
        asked: askedP,
        release: () => {
          hold = undefined;
          release();
        },
      };
    },
  };
}

/**
 * The ai-runner reads and folds a thread's stream once per run and appends the run's start and outcome
 * with the revision it knows; only another writer in between (here: the owner renaming the conversation
 * while the model answers) makes it read the stream again.
 */
describe.skipIf(!gate.available)(
  `the ai-runner's reads of the thread${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    const held = heldProvider();
    /** Reads of each stream by Kesher (not by this test), counted while `counting` is on. */
    const reads = new Map<string, number>();
    let counting = false;
    let testRead: ApiHarness['platform']['eventStore']['readStream'];
    beforeAll(async () => {
      h = await createApiHarness({ answerProvider: held.provider, env: { RUN_SWEEP_INTERVAL_MS: '0' } });
      const store = h.platform.eventStore;
      const readStream = store.readStream.bind(store);
      testRead = readStream;
      store.readStream = (streamId, options) => {
        if (counting) reads.set(streamId, (reads.get(streamId) ?? 0) + 1);
        return readStream(streamId, options);
      };
    });
    afterAll(async () => h?.close());

    /** A conversation with a question waiting and its run requested while the ai-runner is stopped. */
    async function requestedRun() {
      const thread = await ownerThread(h, 'Reads');
      const { auth, threadId } = thread;
      await h.workers.aiRunner.stop();
      const runId = await askOnThread(h, thread, 'What are your hours?');
      return { auth, threadId, runId };
    }
    const typesOf = async (threadId: string) => (await testRead(streamIds.thread(threadId))).map((e) => e.type);

    it('answers a run reading its thread once', async () => {
      const { threadId } = await requestedRun();
      reads.clear();
      counting = true;
      await h.workers.aiRunner.start();
      await expect.poll(() => typesOf(threadId), { timeout: 30_000, interval: 50 }).toContain('RunCompleted');
      await h.workers.aiRunner.idle();
      counting = false;
      expect(reads.get(streamIds.thread(threadId))).toBe(1);
      expect(await typesOf(threadId)).toEqual([
        'ThreadStarted',
        'MessagePosted',
        'RunRequested',
        'RunStarted',
        'MessagePosted',
        'RunCompleted',
      ]);
    });

    it('reads it again when someone else wrote meanwhile, and records the answer after that write', async () => {
      const { auth, threadId, runId } = await requestedRun();
      const answer = held.holdNext();
      reads.clear();
      counting = true;
      await h.workers.aiRunner.start();
      // The model is asked once the thread was read: the rename below comes after the worker's read.
      await answer.asked;
      expect(
        (
          await h.app.inject({
            method: 'PATCH',
            url: `/api/v1/threads/${threadId}`,
            headers: auth,
            payload: { title: 'Renamed meanwhile' },
          })
        ).statusCode,
      ).toBe(200);
      answer.release();
      await expect.poll(() => typesOf(threadId), { timeout: 30_000, interval: 50 }).toContain('RunCompleted');
      await h.workers.aiRunner.idle();
      counting = false;
      // The ai-runner's first read, the rename's own, and the ai-runner's second once its completion met the rename.
      expect(reads.get(streamIds.thread(threadId))).toBe(3);
      expect(await typesOf(threadId)).toEqual([
        'ThreadStarted',
        'MessagePosted',
        'RunRequested',
        'ThreadRenamed',
        // The start goes with the answer (the worker claimed the run on its output).
        'RunStarted',
        'MessagePosted',
        'RunCompleted',
      ]);
      await expect
        .poll(
          async () =>
            (await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers: auth })).json().status,
          { timeout: 30_000, interval: 50 },
        )
        .toBe('completed');
    });
  },
);
