import type { RecordedEvent } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { createSqlEventStore } from '../../platform/event-store/sql-event-store.js';
import { testEvent } from '../../platform/event-store/testing/test-event.js';
import { onEverySqlBackend } from '../../testing/sql-backends.js';
import { runRequestsFromLog } from './run-requests.js';

const request = (runId: string) => testEvent('RunRequested', { runId });

/** What a feed hands over, and a wait for a given run id to be among it (on state, not on the clock). */
function recorder() {
  const handed: string[] = [];
  const waits = new Map<string, () => void>();
  return {
    handed,
    handle: async (event: RecordedEvent) => {
      const runId = (event.data as { runId: string }).runId;
      handed.push(runId);
      waits.get(runId)?.();
    },
    until: (runId: string) =>
      handed.includes(runId) ? Promise.resolve() : new Promise<void>((resolve) => waits.set(runId, resolve)),
  };
}

await onEverySqlBackend('run requests from the log', (backend, open) => {
  describe(`run requests from the log (${backend})`, () => {
    it('follows the log from its newest event at a first start, then from its checkpoint; hands over only requests', async () => {
      const { sql, close } = await open();
      const log = await createSqlEventStore({ sql });
      try {
        // Before the first start: the bus's to hand out (or the sweep's), never the log feed's.
        await log.appendToStream('thread-a', [request('run-1')], { expectedRevision: 'no_stream' });
        const feed = runRequestsFromLog({ eventStore: log, sql, name: 'test-run-requests' });
        const seen = recorder();
        const first = await feed.start(seen.handle);
        await log.appendToStream('thread-a', [testEvent('MessagePosted', { text: 'hi' }), request('run-2')], {
          expectedRevision: 0n,
        });
        await seen.until('run-2');
        await first.stop();

        // Appended while no runner reads: handed over at the next start, from the checkpoint written at stop.
        await log.appendToStream('thread-b', [request('run-3')], { expectedRevision: 'no_stream' });
        const second = await feed.start(seen.handle);
        await seen.until('run-3');
        await log.appendToStream('thread-b', [request('run-4')], { expectedRevision: 0n });
        await seen.until('run-4');
        await second.stop();
        expect(seen.handed).toEqual(['run-2', 'run-3', 'run-4']);
      } finally {
        await log.close();
        await close();
      }
    });
  });
});
