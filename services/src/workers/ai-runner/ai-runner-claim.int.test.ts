import { streamIds, type RecordedEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../chat/answer-provider.port.js';
import { createSqlRunOutput } from '../../chat/run-output/sql.run-output.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { createAiRunner } from './ai-runner.worker.js';
import type { RunRequests } from './run-requests.js';
import { askOnThread, ownerThread } from './testing/owner-thread.js';

const gate = await postgresAvailability();

/**
 * Two workers handed the same request at the same moment (a rebalance hands a request on while its first
 * worker still answers it; a redelivery after a crash) both get as far as the model's first words. Only
 * one may answer: the claim on the run's output lets one in, and the other stops without a word written.
 * Each worker here has its own run output, as two processes would, on the harness's Postgres.
 */
describe.skipIf(!gate.available)(
  `two ai-runners handed the same run at once${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness({ env: { RUN_SWEEP_INTERVAL_MS: '0' } });
    });
    afterAll(async () => h?.close());

    it('answers it once: one claims it with its first words, the other writes nothing and records nothing', async () => {
      const thread = await ownerThread(h, 'Race');
      await h.workers.aiRunner.stop(); // the harness's own worker stays out of it
      const runId = await askOnThread(h, thread, 'When do you open?');
      const request = (await h.platform.eventStore.readStream(streamIds.thread(thread.threadId))).find(
        (e) => e.type === 'RunRequested',
      )!;

      // Both are asked before either hears a word back, so both reach their claim.
      const asked: string[] = [];
      let bothAsked!: () => void;
      const together = new Promise<void>((resolve) => (bothAsked = resolve));
      const provider = (name: string): AnswerProvider => ({
        name,
        async *answer() {
          asked.push(name);
          if (asked.length === 2) bothAsked();
          await together;
          yield { kind: 'text', text: `${name} says: ` };
          yield { kind: 'text', text: 'we open at nine.' };
        },
      });
      const handedOnce = (event: RecordedEvent): RunRequests => ({
        async start(handle) {
          await handle(event);
          return { stop: async () => {} };
        },
      });
      const outputs = [createSqlRunOutput({ sql: h.platform.sql }), createSqlRunOutput({ sql: h.platform.sql })];
      const runners = ['first', 'second'].map((name, i) =>
        createAiRunner({
          bus: undefined as never,
          eventStore: h.platform.eventStore,
          handle: h.platform.handle,
          provider: provider(name),
          findAssistant: async () => ({
            name: 'Race',
            instructions: 'Answer.',
            salesMode: { enabled: false, salesPrompt: '' },
          }),
          retrieve: async () => [],
          overdueRuns: async () => [],
          output: outputs[i]!,
          requests: handedOnce(request),
          sweepIntervalMs: 0,
        }),
      );
      try {
        await Promise.all(runners.map((runner) => runner.start()));
        await Promise.all(runners.map((runner) => runner.idle()));
        await Promise.all(outputs.map((output) => output.flushed()));
      } finally {
        await Promise.all(runners.map((runner) => runner.stop()));
        await Promise.all(outputs.map((output) => output.close()));
      }

      expect(asked.sort()).toEqual(['first', 'second']);
      const about = (await h.platform.eventStore.readStream(streamIds.thread(thread.threadId))).filter(
        (e) => (e.data as { runId?: string }).runId === runId,
      );
      expect(about.map((e) => e.type)).toEqual(['RunRequested', 'RunStarted', 'MessagePosted', 'RunCompleted']);
      const winner = (about[1]!.data as { provider: string }).provider;
      const answer = `${winner} says: we open at nine.`;
      expect((about[2]!.data as { text: string }).text).toBe(answer);
      // The output holds the winner's claim and words, then the end: nothing of the other worker.
      const { rows } = await h.platform.sql.query<{ kind: string; text: string }>(
        `SELECT kind, text FROM run_output WHERE run_id = $1 ORDER BY seq`,
        [runId],
      );
      expect(rows[0]!.kind).toBe('claim');
      expect(
        rows
          .slice(1)
          .filter((r) => r.kind === 'delta')
          .map((r) => r.text)
          .join(''),
      ).toBe(answer);
      expect(rows.filter((r) => r.kind === 'end')).toHaveLength(1);
      expect(rows.at(-1)!.kind).toBe('end');
    });
  },
);
