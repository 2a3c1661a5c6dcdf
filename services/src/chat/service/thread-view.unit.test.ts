import type { RecordedEvent } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { recordedOutcomeOf, threadViewOf, visibleTo } from './thread-view.js';

const threadId = 'thread_1';
let position = 0n;
/** A stored event of the thread's stream, recorded at `second` (seconds since the epoch). */
function stored(type: string, data: Record<string, unknown>, second: number): RecordedEvent {
  const p = position++;
  return {
    streamId: `thread-${threadId}`,
    streamPosition: p,
    position: { commit: p, prepare: p },
    type,
    data: { threadId, ...data },
    metadata: {
      eventId: crypto.randomUUID(),
      correlationId: 'c',
      causationId: 'c',
      actor: { kind: 'system', id: 'test' },
      timestamp: new Date(second * 1000 + 750).toISOString(),
      schemaVersion: 1,
    },
    createdAt: new Date(second * 1000),
  };
}

const visitorHash = 'a'.repeat(64);
const linkHash = 'b'.repeat(64);
const started = (second = 100, overrides: Record<string, unknown> = {}) =>
  stored(
    'ThreadStarted',
    {
      assistantId: 'asst-1',
      assistantOwnerId: 'owner-1',
      ownerId: null,
      visitorSessionHash: visitorHash,
      isPublic: true,
      channel: 'public_link',
      shareTokenHash: linkHash,
      ...overrides,
    },
    second,
  );
const posted = (
  messageId: string,
  role: 'user' | 'assistant',
  text: string,
  second: number,
  runId: string | null = null,
) => stored('MessagePosted', { messageId, role, text, channel: 'public_link', language: 'en', runId }, second);
const requested = (runId: string, second: number, deadline = '2026-01-01T00:10:00.000Z') =>
  stored('RunRequested', { runId, assistantId: 'asst-1', deadlineAt: deadline }, second);
const source = { fileId: 'file-1', filename: 'prices.pdf', sourceUrl: null, section: 'Prices' };
const completed = (runId: string, messageId: string, second: number, sources = [source]) =>
  stored(
    'RunCompleted',
    { runId, messageId, responseMs: 10, promptTokens: 1, completionTokens: 1, sources, referredUrl: null },
    second,
  );

describe('thread view (a thread folded from its stream, as the threads read model holds it)', () => {
  it('is nothing before the thread starts', () => {
    expect(threadViewOf([])).toBeUndefined();
    expect(threadViewOf([posted('m0', 'user', 'lost', 1)])).toBeUndefined();
  });

  it('lists the messages in the order recorded, with role, text, run, the answer’s sources and the second they were recorded', () => {
    const view = threadViewOf([
      started(),
      posted('m1', 'user', 'Hello?', 101),
      requested('run-1', 101),
      stored('RunStarted', { runId: 'run-1', provider: 'builtin' }, 102),
      posted('m2', 'assistant', 'Hi.', 103, 'run-1'),
      completed('run-1', 'm2', 103),
    ]);
    expect(view?.messages).toEqual([
      { id: 'm1', thread_id: threadId, role: 'user', text: 'Hello?', run_id: null, sources: [], created_at: 101 },
      {
        id: 'm2',
        thread_id: threadId,
        role: 'assistant',
        text: 'Hi.',
        run_id: 'run-1',
        sources: [source],
        created_at: 103,
      },
    ]);
    expect(view?.row).toEqual({
      id: threadId,
      assistant_id: 'asst-1',
      owner_id: null,
      is_public: true,
      channel: 'public_link',
      title: 'Hello?',
      created_at: 100,
      share_token_hash: linkHash,
    });
  });

  it('keeps a message recorded twice once', () => {
    const view = threadViewOf([started(), posted('m1', 'user', 'once', 101), posted('m1', 'user', 'twice', 102)]);
    expect(view?.messages.map((m) => m.text)).toEqual(['once']);
  });

  it('follows a run from queued to its first outcome, with its deadline, error and answer', () => {
    const deadline = '2026-01-01T00:10:00.000Z';
    const events = [started(), requested('run-1', 101, deadline)];
    expect(threadViewOf(events)?.runs.get('run-1')).toEqual({
      id: 'run-1',
      thread_id: threadId,
      assistant_id: 'asst-1',
      status: 'queued',
      error: null,
      message_id: null,
      deadline_at: new Date(deadline),
      created_at: 101,
      settled_at: null,
    });
    events.push(stored('RunStarted', { runId: 'run-1', provider: 'builtin' }, 102));
    expect(threadViewOf(events)?.runs.get('run-1')?.status).toBe('in_progress');
    events.push(stored('RunActionsRequired', { runId: 'run-1', calls: [] }, 103));
    expect(threadViewOf(events)?.runs.get('run-1')?.status).toBe('requires_action');
    events.push(
      stored(
        'ActionCalled',
        {
          runId: 'run-1',
          callId: 'c1',
          actionId: 'a1',
          title: 'Book',
          success: true,
          statusCode: 200,
          durationMs: 5,
          error: null,
        },
        104,
      ),
    );
    expect(threadViewOf(events)?.runs.get('run-1')?.status).toBe('in_progress');
    events.push(stored('RunFailed', { runId: 'run-1', error: 'The model is down' }, 105));
    // A second outcome (a late sweep) changes nothing: the first one stands.
    events.push(stored('RunExpired', { runId: 'run-1' }, 106));
    const view = threadViewOf(events)!;
    expect(view.runs.get('run-1')).toMatchObject({ status: 'failed', error: 'The model is down', settled_at: 105 });
    expect(recordedOutcomeOf(view, 'run-1')).toEqual({ status: 'failed', error: 'The model is down' });
  });

  it('says how a run ended: its answer, expired, or nothing while it runs or when it is unknown', () => {
    const running = [started(), posted('m1', 'user', 'Prices?', 101), requested('run-1', 101)];
    expect(recordedOutcomeOf(threadViewOf(running)!, 'run-1')).toBeUndefined();
    expect(recordedOutcomeOf(threadViewOf(running)!, 'run-unknown')).toBeUndefined();
    const answered = threadViewOf([
      ...running,
      posted('m2', 'assistant', '10 shekels.', 104, 'run-1'),
      completed('run-1', 'm2', 104),
    ])!;
    expect(answered.runs.get('run-1')).toMatchObject({ status: 'completed', message_id: 'm2', settled_at: 104 });
    expect(recordedOutcomeOf(answered, 'run-1')).toEqual({
      status: 'completed',
      message: { id: 'm2', text: '10 shekels.', sources: [source], createdAt: 104 },
    });
    expect(
      recordedOutcomeOf(threadViewOf([...running, stored('RunExpired', { runId: 'run-1' }, 150)])!, 'run-1'),
    ).toEqual({ status: 'expired' });
  });

  it('is titled by its first message until renamed, as Chat History lists it', () => {
    expect(threadViewOf([started()])?.row.title).toBe('');
    const asked = [
      started(),
      posted('m1', 'user', 'כמה עולה עוגת יום הולדת?', 101),
      posted('m2', 'assistant', '180 ש"ח.', 102),
      posted('m3', 'user', 'ועם משלוח?', 103),
    ];
    expect(threadViewOf(asked)?.row.title).toBe('כמה עולה עוגת יום הולדת?');
    expect(threadViewOf([...asked, stored('ThreadRenamed', { title: 'Cakes' }, 104)])?.row.title).toBe('Cakes');
  });

  it('takes the newest title, and shows nothing recorded after a deletion', () => {
    const view = threadViewOf([
      started(),
      stored('ThreadRenamed', { title: 'First' }, 101),
      stored('ThreadRenamed', { title: 'Prices' }, 102),
    ]);
    expect(view?.row.title).toBe('Prices');
    const deleted = threadViewOf([
      started(),
      posted('m1', 'user', 'Hi', 101),
      stored('ThreadDeleted', {}, 102),
      posted('m2', 'user', 'after', 103),
    ])!;
    expect(deleted.deleted).toBe(true);
    expect(deleted.messages.map((m) => m.id)).toEqual(['m1']);
  });

  it('is visible to its visitor by session, to the assistant’s owner, to the owner who started it, and to nobody once deleted', () => {
    const visitors = threadViewOf([started()])!;
    expect(visibleTo(visitors, { visitorSessionHash: visitorHash })).toBe(true);
    expect(visibleTo(visitors, { visitorSessionHash: 'c'.repeat(64) })).toBe(false);
    expect(visibleTo(visitors, { ownerId: 'owner-1' })).toBe(true);
    expect(visibleTo(visitors, { ownerId: 'owner-2' })).toBe(false);
    const owners = threadViewOf([
      started(100, {
        ownerId: 'owner-1',
        visitorSessionHash: null,
        isPublic: false,
        channel: 'app',
        shareTokenHash: null,
      }),
    ])!;
    expect(visibleTo(owners, { ownerId: 'owner-1' })).toBe(true);
    expect(visibleTo(owners, { visitorSessionHash: visitorHash })).toBe(false);
    expect(
      visibleTo(threadViewOf([started(), stored('ThreadDeleted', {}, 101)])!, { visitorSessionHash: visitorHash }),
    ).toBe(false);
  });
});
