/**
 * What the personal-data codec costs (docs/privacy.md): append and replay throughput of chat-shaped events
 * with the codec on, next to off, on the real Postgres, one run on this machine. Figures, not pass/fail:
 * written to bench-results/personal-data.json. `npx tsx ops/bench/personal-data.bench.ts`
 * (BENCH_APPEND_SECONDS, BENCH_REPLAY_EVENTS to change the sizes).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { NewEvent } from '@kesher/contracts';
import type { EventStore } from '@kesher/services/platform/event-store/event-store.port';
import { createPersonalDataCodec } from '@kesher/services/platform/event-store/personal-data.codec';
import { withPersonalData } from '@kesher/services/platform/event-store/personal-data.event-store';
import { withEventSchemas } from '@kesher/services/platform/event-store/schema-checked.event-store';
import { createSqlEventStore } from '@kesher/services/platform/event-store/sql-event-store';
import { createPgSql } from '@kesher/services/platform/sql/pg.sql';
import { createSqlSubjectKeys } from '@kesher/services/privacy/keys/sql-subject-keys';
import { createTestDatabase } from '@kesher/services/testing/test-database';
import { round, throughput, writeResults } from './bench-kit.js';

const APPEND_SECONDS = Number(process.env.BENCH_APPEND_SECONDS ?? 10);
const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 100_000);
const THREADS = 512;
const text =
  'When do you open on Friday, and do you bake rye bread? I would like to order two loaves for the weekend. '.repeat(3);

/** A chat's event: a message (one sealed field: its text) on one of THREADS conversations. */
function message(thread: number, i: number): NewEvent {
  return {
    type: 'MessagePosted',
    data: {
      messageId: `m-${randomUUID()}`,
      threadId: `t-${thread}`,
      role: i % 2 ? 'assistant' : 'user',
      text,
      channel: 'public_link',
      language: 'en',
      runId: null,
    },
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: randomUUID(),
      actor: { kind: 'system', id: 'bench' },
      timestamp: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

async function replay(store: EventStore): Promise<{ events: number; perSecond: number }> {
  const started = performance.now();
  let events = 0;
  let after;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 1000 });
    events += batch.events.length;
    after = batch.next;
    if (batch.atEnd) break;
  }
  return { events, perSecond: Math.round(events / ((performance.now() - started) / 1000)) };
}

const db = await createTestDatabase('kesher_bench');
const sql = createPgSql({ connectionString: db.url, max: 20 });
const serverKey = randomBytes(32);
try {
  const raw = await createSqlEventStore({ sql });
  const plain = withEventSchemas(raw);
  const keys = createSqlSubjectKeys({ sql, serverKey });
  const sealed = withEventSchemas(withPersonalData(raw, createPersonalDataCodec(keys)));

  const append = async (store: EventStore, label: string) => {
    // Each appender keeps to its own conversations (as one chat turn at a time writes one thread).
    const perThread = THREADS / 16;
    const perSecond = await throughput(16, APPEND_SECONDS, (w, i) => {
      const thread = w * perThread + (i % perThread);
      return store
        .appendToStream(`thread-${label}-${thread}`, [message(thread, i)], { expectedRevision: 'any' })
        .then(() => {});
    });
    return Math.round(perSecond);
  };
  // Off, on, off, on: the machine is shared, and alternating shows how much of a gap is noise.
  const appendOff = [await append(plain, 'off1')];
  const appendOn = [await append(sealed, 'on1')];
  appendOff.push(await append(plain, 'off2'));
  appendOn.push(await append(sealed, 'on2'));

  // The log grows to REPLAY_EVENTS, half sealed and half plain (events from before the codec read as they are).
  const { rows } = await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM events`);
  let stored = Number(rows[0]!.n);
  while (stored < REPLAY_EVENTS) {
    const batch = Array.from({ length: 50 }, (_, i) => message((stored + i) % THREADS, stored + i));
    await Promise.all(
      Array.from({ length: 8 }, (_, w) =>
        ((stored / 50 + w) % 2 ? sealed : plain).appendToStream(
          `thread-fill-${stored}-${w}`,
          batch.slice(w * 6, w * 6 + 6),
          { expectedRevision: 'any' },
        ),
      ),
    );
    stored += 48;
  }

  // Replay: without the codec (what a store without it reads), and with it from a cold key cache (a new process).
  const replayOff = await replay(plain);
  const replayOnCold = await replay(
    withEventSchemas(withPersonalData(raw, createPersonalDataCodec(createSqlSubjectKeys({ sql, serverKey })))),
  );
  const replayOnWarm = await replay(sealed);

  // The codec's own CPU per event, without the database: sealing and opening one message's text.
  const cpuCodec = createPersonalDataCodec({
    keyIdOf: () => 'thread:bench',
    peek: () => serverKey as Buffer,
    load: async () => {},
    ensure: async () => {},
  });
  const sample = Array.from({ length: 20_000 }, (_, i) => ({
    ...message(i % THREADS, i),
    streamId: 's',
    streamPosition: 0n,
    position: { commit: 0n, prepare: 0n },
    createdAt: new Date(),
  }));
  let t = performance.now();
  const sealedSample = await cpuCodec.sealEvents(sample);
  const sealUs = ((performance.now() - t) * 1000) / sample.length;
  t = performance.now();
  await cpuCodec.openEvents(sealedSample);
  const openUs = ((performance.now() - t) * 1000) / sample.length;

  const results = {
    load_average_1m: round(loadavg()[0]!, 1),
    cpu_microseconds_per_event: { seal: round(sealUs, 1), open: round(openUs, 1) },
    what: 'MessagePosted events (one sealed field, ~330 characters), 16 appenders over 512 conversations (32 each); replay reads the whole log 1000 at a time',
    append_events_per_second: {
      codec_off: appendOff,
      codec_on: appendOn,
      on_vs_off: round(appendOn.reduce((a, b) => a + b) / appendOff.reduce((a, b) => a + b), 3),
    },
    replay_events_per_second: {
      events: replayOff.events,
      codec_off: replayOff.perSecond,
      codec_on_cold_keys: replayOnCold.perSecond,
      codec_on_warm_keys: replayOnWarm.perSecond,
      on_vs_off: round(replayOnCold.perSecond / replayOff.perSecond, 3),
    },
  };
  console.log(JSON.stringify(results, null, 2));
  writeResults('personal-data', results);
  await keys.stop();
} finally {
  await sql.close();
  await db.drop();
}
