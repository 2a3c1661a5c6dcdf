import { streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { askOnThread, ownerThread } from './testing/owner-thread.js';

const gate = await postgresAvailability();

/** Never answers, nor listens to its signal: only the worker's deadline ends the run. */
const silentProvider: AnswerProvider = {
  name: 'silent',
  async *answer() {
    await new Promise<void>(() => {});
    yield* [];
  },
};

/**
 * The worker expires a run it is answering at the run's deadline by the clock the expiry is decided on,
 * even when its timer fires before that clock gets there. A busy event loop does that to timers (they count
 * from the loop's cached time); here the clock runs at half speed, so every timer fires early by its
 * clock. The worker used to give up on the run then, unexpired: the decider refuses an expiry before the
 * deadline, and the run waited for the sweep (a full suite on a loaded machine saw it, with no sweep).
 */
describe.skipIf(!gate.available)(
  `the ai-runner at a run's deadline${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    const start = Date.now();
    beforeAll(async () => {
      // No sweep: the expiry below can only come from the worker answering the run.
      h = await createApiHarness({
        answerProvider: silentProvider,
        clock: () => new Date(start + (Date.now() - start) / 2),
        env: { RUN_DEADLINE_SECONDS: '1', RUN_SWEEP_INTERVAL_MS: '0' },
      });
    });
    afterAll(async () => h?.close());

    it('records RunExpired itself when its timer fires before the clock reaches the deadline', async () => {
      const thread = await ownerThread(h, 'Slow');
      const { threadId } = thread;
      const runId = await askOnThread(h, thread, 'Anyone there?');
      const about = async () =>
        (await h.platform.eventStore.readStream(streamIds.thread(threadId)))
          .filter((e) => (e.data as { runId?: string }).runId === runId)
          .map((e) => e.type);
      // The model never said a word, so the run was never claimed, and its start is not recorded.
      await expect.poll(about).toEqual(['RunRequested', 'RunExpired']);
    });
  },
);
