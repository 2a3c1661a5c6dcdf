import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readModel, recorded, type ReadModelUnderTest } from '../testing/given-then.js';
import { usageProjection } from './usage.projection.js';

const started = (threadId: string, ownerId = 'owner-1', assistantId = 'asst-1') =>
  recorded('ThreadStarted', {
    threadId,
    assistantId,
    assistantOwnerId: ownerId,
    ownerId: null,
    visitorSessionHash: 'a'.repeat(64),
    isPublic: true,
    channel: 'public_link',
  });
const requested = (runId: string, threadId: string) =>
  recorded('RunRequested', { runId, threadId, assistantId: 'asst-1', deadlineAt: '2026-11-01T10:01:00.000Z' });
const completed = (runId: string, threadId: string, at: string) =>
  recorded(
    'RunCompleted',
    {
      runId,
      threadId,
      messageId: `msg-${runId}`,
      responseMs: 900,
      promptTokens: 400,
      completionTokens: 60,
      sources: [],
      referredUrl: null,
    },
    { at },
  );

describe('usage read model, given events then rows', () => {
  let model: ReadModelUnderTest;
  // Starting PGlite (WebAssembly) took over two minutes on the shared 2-core machine under load: a margin, not a wait.
  beforeAll(async () => void (model = await readModel(usageProjection)), 600_000);
  beforeEach(async () => model.reset());
  afterAll(async () => model.close());

  const monthly = () =>
    model.rows(`SELECT owner_id, assistant_id, month, messages FROM usage_monthly_messages ORDER BY owner_id, month`);
  const openRuns = async () =>
    (await model.rows<{ run_id: string }>(`SELECT run_id FROM usage_open_runs ORDER BY run_id`)).map((r) => r.run_id);

  it('counts answers per owner and the month they were given in, not messages or failed answers', async () => {
    await model.given(
      started('t-1'),
      started('t-2', 'owner-2', 'asst-2'),
      requested('r-1', 't-1'),
      requested('r-2', 't-1'),
      requested('r-3', 't-1'),
      requested('r-4', 't-2'),
    );
    expect(await openRuns()).toEqual(['r-1', 'r-2', 'r-3', 'r-4']);
    await model.given(
      completed('r-1', 't-1', '2026-10-31T23:59:00.000Z'),
      completed('r-2', 't-1', '2026-11-01T00:01:00.000Z'),
      recorded('RunFailed', { runId: 'r-3', threadId: 't-1', error: 'provider down' }),
      recorded('RunExpired', { runId: 'r-4', threadId: 't-2' }),
    );
    expect(await monthly()).toEqual([
      { owner_id: 'owner-1', assistant_id: 'asst-1', month: '2026-10', messages: 1 },
      { owner_id: 'owner-1', assistant_id: 'asst-1', month: '2026-11', messages: 1 },
    ]);
    // Settled runs no longer hold a place against the limit.
    expect(await openRuns()).toEqual([]);
  });

  it('sums answers given over several batches, and keeps them when the conversation is deleted', async () => {
    await model.given(started('t-1'), requested('r-1', 't-1'), completed('r-1', 't-1', '2026-11-02T10:00:00.000Z'));
    await model.given(
      requested('r-2', 't-1'),
      completed('r-2', 't-1', '2026-11-03T10:00:00.000Z'),
      requested('r-3', 't-1'),
      recorded('ThreadDeleted', { threadId: 't-1' }),
    );
    expect(await monthly()).toEqual([{ owner_id: 'owner-1', assistant_id: 'asst-1', month: '2026-11', messages: 2 }]);
    // The deleted conversation's run that will never settle gives its place back.
    expect(await openRuns()).toEqual([]);
    expect(await model.rows(`SELECT thread_id FROM usage_threads`)).toEqual([]);
  });

  it('does not count an answer in a conversation whose start it never saw', async () => {
    await model.given(completed('r-9', 't-unknown', '2026-11-02T10:00:00.000Z'));
    expect(await monthly()).toEqual([]);
  });
});
