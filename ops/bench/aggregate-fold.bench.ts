/**
 * What it costs to fold an aggregate whose state grows with its stream, and to decide on it, by length:
 * a conversation (its thread: ~4 events a question) and an assistant keeping crawled pages (one slot event
 * each, up to 10,000 on the largest plan). In memory, no database: the deciders alone. Each figure is the
 * median of a few repetitions after a warm-up. And what opening a conversation's sealed messages costs,
 * each read, with and without the texts kept opened (the key store on an in-memory PGlite).
 *
 *   make bench-aggregates        bench-results/aggregate-fold.json
 */
import { performance } from 'node:perf_hooks';
import type { AssistantCreated, ThreadStarted } from '@kesher/contracts';
import { assistantDecider, type AssistantState } from '@kesher/services/domain/assistant/assistant.decider';
import { threadDecider, type ThreadEvent, type ThreadState } from '@kesher/services/domain/thread/thread.decider';
import { randomBytes } from 'node:crypto';
import { createOpenedTexts } from '@kesher/services/platform/event-store/opened-texts';
import { createPersonalDataCodec } from '@kesher/services/platform/event-store/personal-data.codec';
import { testEvent } from '@kesher/services/platform/event-store/testing/test-event';
import { createSqlSubjectKeys } from '@kesher/services/privacy/keys/sql-subject-keys';
import { createTestPglite } from '@kesher/services/testing/test-database';
import { percentile, round, writeResults } from './bench-kit.js';

const REPEAT = 7;

/** The median milliseconds of `work`, after one run to warm it up. */
function medianMs(work: () => void): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return round(
    percentile(
      times.sort((a, b) => a - b),
      50,
    ),
    2,
  );
}

function threadEvents(questions: number): ThreadEvent[] {
  const started = {
    threadId: 't',
    assistantId: 'a',
    assistantOwnerId: 'o',
    ownerId: 'o',
    isPublic: false,
    channel: 'app',
    visitorSessionHash: null,
  } as unknown as ThreadStarted;
  const events: ThreadEvent[] = [{ type: 'ThreadStarted', data: started }];
  const posted = (messageId: string, role: 'user' | 'assistant', runId: string | null) =>
    ({
      type: 'MessagePosted',
      data: { messageId, threadId: 't', role, text: 'x', channel: 'app', language: 'en', runId },
    }) as ThreadEvent;
  for (let q = 0; q < questions; q++) {
    const runId = `run-${q}`;
    events.push(posted(`q-${q}`, 'user', null));
    events.push({ type: 'RunRequested', data: { runId, threadId: 't', assistantId: 'a', deadlineAt: '2030-01-01' } });
    events.push({ type: 'RunStarted', data: { runId, threadId: 't', provider: 'builtin' } } as ThreadEvent);
    events.push(posted(`a-${q}`, 'assistant', runId));
    events.push({ type: 'RunCompleted', data: { runId, threadId: 't', messageId: `a-${q}` } } as ThreadEvent);
  }
  return events;
}

function assistantWithPages(pages: number): AssistantState {
  const created = {
    assistantId: 'a',
    numericId: 1,
    externalId: 'asst_x',
    ownerId: 'o',
    profile: { name: 'n', description: '', instructions: '' },
  } as unknown as AssistantCreated;
  let state = assistantDecider.evolve(assistantDecider.initialState(), { type: 'AssistantCreated', data: created });
  for (let i = 0; i < pages; i++)
    state = assistantDecider.evolve(state, {
      type: 'KnowledgeFileSlotTaken',
      data: { assistantId: 'a', fileId: `page-${i}`, pool: 'crawl' },
    });
  return state;
}

const results: Record<string, unknown> = {};
for (const questions of [100, 400, 1000]) {
  const events = threadEvents(questions);
  let state: ThreadState = threadDecider.initialState();
  results[`thread_${questions}_questions_fold_ms`] = await medianMs(() => {
    state = events.reduce(threadDecider.evolve, threadDecider.initialState());
  });
  results[`thread_${questions}_questions_decide_ms`] = await medianMs(() => {
    threadDecider.decide(
      {
        type: 'PostUserMessage',
        data: { requester: { ownerId: 'o' }, messageId: 'new', text: 'x', language: 'en', chatLimit: 1_000_000 },
      },
      state,
    );
  });
}
for (const pages of [1000, 5000, 10_000]) {
  let state: AssistantState = assistantDecider.initialState();
  results[`assistant_${pages}_pages_fold_ms`] = await medianMs(() => {
    state = assistantWithPages(pages);
  });
  results[`assistant_${pages}_pages_decide_upload_ms`] = await medianMs(() => {
    assistantDecider.decide(
      { type: 'TakeFileSlot', data: { assistantId: 'a', ownerId: 'o', fileId: 'upload', limit: 1_000_000 } },
      state,
    );
  });
}
// A conversation of 400 questions holds 800 sealed messages; each read of its stream opens them all.
{
  const sql = await createTestPglite();
  const keys = createSqlSubjectKeys({ sql, serverKey: randomBytes(32) });
  const messages = Array.from({ length: 800 }, (_, i) =>
    testEvent('MessagePosted', {
      messageId: `m${i}`,
      threadId: 't',
      role: i % 2 ? 'assistant' : 'user',
      text: 'שלום, מה שלומך היום? '.repeat(4 + (i % 8)),
      channel: 'app',
      language: 'he',
      runId: null,
    }),
  );
  const sealed = (await createPersonalDataCodec(keys).sealEvents(messages)).map((event, i) => ({
    ...event,
    streamId: 'thread-t',
    streamPosition: BigInt(i),
    position: { commit: 1n, prepare: BigInt(i + 1) },
    createdAt: new Date(),
  }));
  const opening = createPersonalDataCodec(keys, { openedTexts: createOpenedTexts({ maxChars: 0 }) });
  const kept = createPersonalDataCodec(keys);
  results.thread_800_messages_open_ms = await medianMs(() => opening.openEvents(sealed));
  results.thread_800_messages_open_kept_ms = await medianMs(() => kept.openEvents(sealed));
  await sql.close();
}
results.command = 'make bench-aggregates';
writeResults('aggregate-fold', results);
console.log(JSON.stringify(results, null, 2));
