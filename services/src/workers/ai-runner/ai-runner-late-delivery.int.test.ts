import { streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { countingProvider } from './testing/counting-provider.js';
import { askOnThread, ownerThread } from './testing/owner-thread.js';

const gate = await postgresAvailability();

/**
 * A run request that reaches the ai-runner only after its deadline — it was redelivered after a worker
 * died, or waited behind others — is expired without asking the model: the answer would be thrown away.
 */
describe.skipIf(!gate.available)(
  `the ai-runner given a run past its deadline${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    const counting = countingProvider();
    beforeAll(async () => {
      // No sweep: the expiry below can only come from the delivery of the request.
      h = await createApiHarness({
        answerProvider: counting.provider,
        env: { RUN_DEADLINE_SECONDS: '1', RUN_SWEEP_INTERVAL_MS: '0' },
      });
    });
    afterAll(async () => h?.close());

    it('records RunExpired and never asks the model', async () => {
      const thread = await ownerThread(h, 'Late');
      const { auth, threadId } = thread;
      await h.workers.aiRunner.stop(); // the request waits in the log meanwhile
      const runId = await askOnThread(h, thread, 'Anyone there?');
      await expect
        .poll(
          async () =>
            (await h.app.inject({ url: `/api/v1/threads/${threadId}/runs/${runId}`, headers: auth })).json().status,
          { timeout: 30_000, interval: 50 },
        )
        .toBe('expired');

      await h.workers.aiRunner.start();
      const about = async () =>
        (await h.platform.eventStore.readStream(streamIds.thread(threadId)))
          .filter((e) => (e.data as { runId?: string }).runId === runId)
          .map((e) => e.type);
      await expect.poll(about, { timeout: 30_000, interval: 50 }).toEqual(['RunRequested', 'RunExpired']);
      await h.workers.aiRunner.idle();
      expect(counting.asked).toEqual([]);
      // This process relays its own bus, so its runner read the request from the log, behind its own
      // checkpoint (run-requests.ts), and never opened its consumer group on the bus.
      const group = await h.platform.sql.query(`SELECT 1 FROM bus_offsets WHERE group_id = $1`, [
        h.workers.groups.aiRunner,
      ]);
      expect(group.rows).toEqual([]);
      const checkpoint = await h.platform.sql.query(
        `SELECT 1 FROM projection_checkpoints WHERE name = 'ai-runner-requests'`,
      );
      expect(checkpoint.rows).toHaveLength(1);
    });
  },
);
