import { streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadDecider } from '../../domain/thread/thread.decider.js';
import { handleCommand } from '../../platform/commands/command-handler.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { countingProvider } from './testing/counting-provider.js';
import { ownerThread } from './testing/owner-thread.js';

const gate = await postgresAvailability();

/**
 * A run request delivered again after another worker recorded the run's start — that worker died
 * mid-answer, or a rebalance handed the request on while it still answers — is not answered a second
 * time: the words would reach the run's stream twice (seen by `make scale-test` when it SIGKILLs a worker).
 */
describe.skipIf(!gate.available)(
  `the ai-runner given a run another worker started${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    const counting = countingProvider();
    beforeAll(async () => {
      // No sweep: nothing but the delivery of the request may touch the run.
      h = await createApiHarness({ answerProvider: counting.provider, env: { RUN_SWEEP_INTERVAL_MS: '0' } });
    });
    afterAll(async () => h?.close());

    it('neither asks the model nor writes a word to the run output', async () => {
      const { auth, assistant, threadId } = await ownerThread(h, 'Taken');

      const witnessThread = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/threads/',
          headers: auth,
          payload: { assistant_id: assistant.assistant_id },
        })
      ).json().thread_id as string;

      await h.workers.aiRunner.stop(); // the requests wait in the log meanwhile
      const runId = (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/runs`,
          headers: auth,
          payload: {
            assistant_id: assistant.openai_assistant_id,
            additional_messages: [{ role: 'user', content: 'Anyone there?' }],
          },
        })
      ).json().run_id as string;
      // Another worker's claim, recorded before it died.
      const context = {
        actor: { kind: 'system' as const, id: 'ai-runner' },
        correlationId: 'other-worker',
        now: new Date(),
      };
      const claimed = await handleCommand(
        h.platform.eventStore,
        threadDecider,
        streamIds.thread(threadId),
        { type: 'StartRun', data: { runId, provider: 'other' } },
        context,
      );
      expect(claimed.events.map((e) => e.type)).toEqual(['RunStarted']);

      // A run requested after it on the same topic: once it is answered, the first request was delivered too.
      const witness = (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${witnessThread}/runs`,
          headers: auth,
          payload: {
            assistant_id: assistant.openai_assistant_id,
            additional_messages: [{ role: 'user', content: 'And you?' }],
          },
        })
      ).json().run_id as string;

      await h.workers.aiRunner.start();
      await expect
        .poll(
          async () =>
            (await h.app.inject({ url: `/api/v1/threads/${witnessThread}/runs/${witness}`, headers: auth })).json()
              .status,
          { timeout: 20_000, interval: 50 },
        )
        .toBe('completed');
      await h.workers.aiRunner.idle();
      expect(counting.asked).toEqual(['And you?']);
      const { rows } = await h.platform.sql.query<{ n: string }>(
        'SELECT count(*)::text AS n FROM run_output WHERE run_id = $1',
        [runId],
      );
      expect(rows[0]!.n).toBe('0');
      const about = (await h.platform.eventStore.readStream(streamIds.thread(threadId)))
        .filter((e) => (e.data as { runId?: string }).runId === runId)
        .map((e) => e.type);
      expect(about).toEqual(['RunRequested', 'RunStarted']);
    });
  },
);
