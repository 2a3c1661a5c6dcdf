import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { validateNewEvent, type EventData, type EventType, type RecordedEvent } from '@kesher/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keywordsProjection } from './keywords.projection.js';
import { retainedKeywordsOf } from './retained-keywords.js';

let position = 0n;
/** An event as read back from the log, checked against its schema first (what the store does on append). */
function recorded<T extends EventType>(type: T, data: EventData<T>, at: string): RecordedEvent<T, EventData<T>> {
  validateNewEvent(type, data);
  position += 1n;
  return {
    streamId: 'thread-t1',
    streamPosition: position,
    position: { commit: position, prepare: position },
    type,
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: 'c',
      causationId: 'c',
      actor: { kind: 'system', id: 'test' },
      timestamp: at,
      schemaVersion: 1,
    },
    createdAt: new Date(at),
  };
}

const started = recorded(
  'ThreadStarted',
  {
    threadId: 't1',
    assistantId: 'a1',
    assistantOwnerId: 'o1',
    ownerId: null,
    visitorSessionHash: 'a'.repeat(64),
    isPublic: true,
    channel: 'public_link',
  },
  '2026-11-01T09:00:00.000Z',
);
const texts = [
  ['user', 'Do you bake Sourdough breads on Friday?', '2026-11-01T10:00:00.000Z'],
  ['assistant', 'We bake sourdough bread every Friday morning.', '2026-11-01T10:00:05.000Z'],
  ['user', 'Is the sourdough vegan? My name is Dana.', '2026-11-02T08:00:00.000Z'],
] as const;
const message = (i: number, text: string) =>
  recorded(
    'MessagePosted',
    {
      messageId: `m${i}`,
      threadId: 't1',
      role: texts[i]![0],
      text,
      channel: 'public_link',
      language: 'en',
      runId: null,
    },
    texts[i]![2],
  );
const readable = texts.map(([, text], i) => message(i, text));
const erased = texts.map((_, i) => message(i, '[erased]'));
// What the erasure records, from the messages as it read them before shredding the key.
const retained = recorded(
  'KeywordsRetained',
  retainedKeywordsOf('t1', readable, () => false),
  '2026-11-03T00:00:00.000Z',
);

/**
 * The keyword counts of a conversation that is erased, as the projector meets it: live (its messages were
 * counted from their text, then KeywordsRetained), on a replay after the erasure (every text reads
 * "[erased]"), and with the projector behind when the key went (some counted, the rest erased). Each
 * must give the same rows as the live read model before the erasure.
 */
describe('keyword counts of an erased conversation', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
    for (const migration of keywordsProjection.migrations) await pglite.exec(migration.sql);
  });
  afterAll(async () => pglite?.close());
  beforeEach(async () => void (await pglite.exec(`TRUNCATE ${keywordsProjection.tables.join(', ')}`)));

  /** Applies the events, `batch` at a time, as the runner would. */
  async function project(events: readonly RecordedEvent[], batch = events.length) {
    for (let i = 0; i < events.length; i += batch)
      await pglite.transaction(async (tx) =>
        keywordsProjection.apply(
          { query: async (text, params) => tx.query(text, params ? [...params] : []) },
          events.slice(i, i + batch),
        ),
      );
    const rows = (
      await pglite.query<{ rows: string }>(
        `SELECT json_agg(k ORDER BY k.day, k.source, k.keyword)::text AS rows FROM analytics_keywords_daily k`,
      )
    ).rows[0]!.rows;
    // The whole read model: the per-conversation counts must agree too (a rebuild is compared table by table).
    const counted = (await pglite.query<{ counted: number }>(`SELECT counted FROM analytics_keyword_thread_counts`))
      .rows;
    return counted.length > 0 ? `${rows} counted:${counted.map((r) => r.counted).join(',')}` : rows;
  }

  it('counts the same live, after the erasure, on a replay after it, and with the projector behind', async () => {
    const before = await project([started, ...readable]);
    expect(before).toContain('"keyword":"sourdough"');
    expect(before).toContain('counted:3');
    const mentionsOf = (rows: string, keyword: string) =>
      (JSON.parse(rows.split(' counted:')[0]!) as { keyword: string; mentions: number }[])
        .filter((row) => row.keyword === keyword)
        .reduce((sum, row) => sum + row.mentions, 0);
    expect(mentionsOf(before, 'sourdough')).toBe(3);

    await pglite.exec(`TRUNCATE ${keywordsProjection.tables.join(', ')}`);
    const live = await project([started, ...readable, retained]);
    expect(live).toBe(before);

    await pglite.exec(`TRUNCATE ${keywordsProjection.tables.join(', ')}`);
    expect(await project([started, ...erased, retained])).toBe(before);

    for (const counted of [1, 2]) {
      await pglite.exec(`TRUNCATE ${keywordsProjection.tables.join(', ')}`);
      const behind = [started, ...readable.slice(0, counted), ...erased.slice(counted), retained];
      expect(await project(behind, 1), `${counted} counted before the key went`).toBe(before);
    }
  });

  it('shows the same label whichever form was counted first', async () => {
    const forms = await project([started, ...readable]);
    await pglite.exec(`TRUNCATE ${keywordsProjection.tables.join(', ')}`);
    // One message a batch, in another order: the rows (labels included) are the same.
    expect(await project([started, readable[1]!, readable[0]!, readable[2]!], 1)).toBe(forms);
  });

  it('keeps no message text, only keywords', () => {
    const json = JSON.stringify(retained.data);
    for (const [, text] of texts) expect(json).not.toContain(text);
    expect(retained.data.messages).toHaveLength(3);
    expect(retained.data.plain).toBe(0);
  });
});
