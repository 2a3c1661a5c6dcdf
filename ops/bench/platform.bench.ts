/**
 * Platform benchmarks (issue: platform core). Every figure comes from one run on this machine, against
 * the real Postgres and the real Kafka broker. Figures, not pass/fail: they are written with their goals
 * to bench-results/platform.json.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { streamIds, type NewEvent, type RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import { createKafkaBus } from '@kesher/services/platform/bus/kafka.bus';
import { createSqlEventStore } from '@kesher/services/platform/event-store/sql-event-store';
import { withEventSchemas } from '@kesher/services/platform/event-store/schema-checked.event-store';
import { createProjectionRunner } from '@kesher/services/platform/projections/projection-runner';
import { createCommandHandler } from '@kesher/services/platform/commands/command-handler';
import { createPgSql } from '@kesher/services/platform/sql/pg.sql';
import { createTestDatabase } from '@kesher/services/testing/test-database';
import { kafkaBrokers } from '@kesher/services/testing/kafka';
import { createRelay } from '@kesher/services/workers/relay/relay';
import { fromMessage } from '@kesher/services/platform/bus/relayed-event';
import { assistantDecider } from '@kesher/services/domain/assistant/assistant.decider';
import { assistantsProjection } from '@kesher/projections/assistants/assistants.projection';
import { peakRssMb, percentile, round, throughput, writeResults } from './bench-kit.js';

const seconds = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const APPEND_SECONDS = seconds('BENCH_APPEND_SECONDS', 10);
const LAG_SECONDS = seconds('BENCH_LAG_SECONDS', 60);
const RELAY_SECONDS = seconds('BENCH_RELAY_SECONDS', 20);
const REPLAY_EVENTS = seconds('BENCH_REPLAY_EVENTS', 1_000_000);

const payload = 'k'.repeat(330);
function benchEvent(n: number): NewEvent {
  return {
    type: 'BenchNoted',
    data: { n, note: payload },
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
const eventBytes =
  Buffer.byteLength(JSON.stringify(benchEvent(0).data)) + Buffer.byteLength(JSON.stringify(benchEvent(0).metadata));

async function appendThroughput() {
  const db = await createTestDatabase('kesher_bench');
  const sql = createPgSql({ connectionString: db.url, max: 20 });
  const store = await createSqlEventStore({ sql });
  const one = await throughput(1, APPEND_SECONDS, (w, i) =>
    store.appendToStream(`bench-a${w}-${i}`, [benchEvent(i)], { expectedRevision: 'no_stream' }).then(() => {}),
  );
  const sixteen = await throughput(16, APPEND_SECONDS, (w, i) =>
    store.appendToStream(`bench-b${w}-${i}`, [benchEvent(i)], { expectedRevision: 'no_stream' }).then(() => {}),
  );

  // The physical reference: the same rows, into an identical table, with plain autocommit INSERTs.
  await sql.exec(`CREATE TABLE raw_events (LIKE events INCLUDING ALL)`);
  const raw = await throughput(16, APPEND_SECONDS, async (w, i) => {
    const e = benchEvent(i);
    await sql.query(
      `INSERT INTO raw_events (global_position, transaction_id, stream_id, stream_position, event_id, event_type, data, metadata)
       VALUES (nextval('events_global_position_seq'), pg_current_xact_id(), $1, 0, $2, $3, $4::jsonb, $5::jsonb)`,
      [`raw-${w}-${i}`, e.metadata.eventId, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)],
    );
  });
  await store.close();
  await sql.close();
  await db.drop();
  return {
    append_eps_1_writer: round(one),
    append_eps_16_writers: round(sixteen),
    raw_insert_eps_16_writers: round(raw),
  };
}

/** A simple read model: events counted per type and per stream category. */
const countsProjection: Projection = {
  name: 'bench_counts',
  version: 1,
  eventTypes: ['BenchNoted', 'BenchOther'],
  tables: ['bench_counts'],
  migrations: [
    {
      id: '001-counts',
      sql: `CREATE TABLE IF NOT EXISTS bench_counts (event_type text PRIMARY KEY, n bigint NOT NULL)`,
    },
  ],
  async apply(db, events: readonly RecordedEvent[]) {
    const counts = new Map<string, number>();
    for (const e of events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
    await db.query(
      `INSERT INTO bench_counts (event_type, n) SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT (event_type) DO UPDATE SET n = bench_counts.n + EXCLUDED.n`,
      [[...counts.keys()], [...counts.values()]],
    );
  },
};

async function replayThroughput() {
  const db = await createTestDatabase('kesher_bench');
  const sql = createPgSql({ connectionString: db.url, max: 4 });
  const store = await createSqlEventStore({ sql });
  // Seeding a million events through the append path would take minutes and measure appends again;
  // bulk-insert rows of the same shape instead, in chunks so each transaction stays short.
  const sample = benchEvent(0);
  for (let from = 0; from < REPLAY_EVENTS; from += 100_000) {
    await sql.query(
      `INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
       SELECT 'replay-' || g, 0, gen_random_uuid(), CASE WHEN g % 10 = 0 THEN 'BenchOther' ELSE 'BenchNoted' END,
              jsonb_build_object('n', g, 'note', $3::text), $4::jsonb
       FROM generate_series($1::int, $2::int) AS g`,
      [from, Math.min(from + 100_000, REPLAY_EVENTS) - 1, payload, JSON.stringify(sample.metadata)],
    );
  }
  // As autovacuum would after a load this size: without statistics the planner may not use the
  // (transaction_id, global_position) index and every page of the replay turns into a sort.
  await sql.query('ANALYZE events');
  const runner = createProjectionRunner({ eventStore: store, sql, projections: [countsProjection], batchSize: 5000 });
  const head = await store.headPosition();
  const started = performance.now();
  await runner.start();
  if (!(await runner.waitForPosition(head, { timeoutMs: 600_000 }))) throw new Error('replay did not finish');
  const elapsed = (performance.now() - started) / 1000;
  const { rows } = await sql.query<{ total: string }>(`SELECT sum(n)::text AS total FROM bench_counts`);
  if (Number(rows[0]!.total) !== REPLAY_EVENTS) throw new Error(`replay counted ${rows[0]!.total} of ${REPLAY_EVENTS}`);
  await runner.stop();
  await store.close();
  await sql.close();
  await db.drop();
  return { replay_eps: round(REPLAY_EVENTS / elapsed), replay_events: REPLAY_EVENTS };
}

/** Commands at a fixed rate; for each, the time from the append being accepted to the read model having it. */
async function commandToReadModelLag() {
  const db = await createTestDatabase('kesher_bench');
  const sql = createPgSql({ connectionString: db.url, max: 20 });
  const eventStore = withEventSchemas(await createSqlEventStore({ sql }));
  const runner = createProjectionRunner({ eventStore, sql, projections: [assistantsProjection] });
  await runner.start();
  const handle = createCommandHandler({ eventStore });
  const lags: number[] = [];
  const ratePerSecond = 200;
  const total = ratePerSecond * LAG_SECONDS;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(
      (async () => {
        const assistantId = randomUUID();
        const result = await handle(
          assistantDecider,
          streamIds.assistant(assistantId),
          {
            type: 'CreateAssistant',
            data: {
              assistantId,
              numericId: i + 1,
              externalId: `asst_${String(i).padStart(24, '0')}`,
              ownerId: 'bench-owner',
              profile: {
                name: `Assistant ${i}`,
                description: 'Benchmark assistant',
                instructions: 'Answer briefly',
                chat_limit: 100,
                website_url: null,
                avatar_url: null,
                web_crawler: {
                  enabled: false,
                  website_url: null,
                  max_pages: 2000,
                  max_depth: 10,
                  delete_orphaned_pages: false,
                },
                payment_processing: { enabled: false, sales_prompt: '' },
              },
            },
          },
          { actor: { kind: 'account', id: 'bench-owner' }, correlationId: randomUUID(), now: new Date() },
        );
        const accepted = performance.now();
        if (!(await runner.waitForPosition(result.appended!.position, { timeoutMs: 10_000 })))
          throw new Error('read model never caught up');
        lags.push(performance.now() - accepted);
      })(),
    );
  }
  await Promise.all(inFlight);
  const achievedRate = total / ((performance.now() - started) / 1000);
  await runner.stop();
  await eventStore.close();
  await sql.close();
  await db.drop();
  lags.sort((a, b) => a - b);
  return {
    lag_ms_p50: round(percentile(lags, 50)),
    lag_ms_p99: round(percentile(lags, 99)),
    lag_commands: total,
    lag_rate_achieved: round(achievedRate),
  };
}

/** Appended → consumed by a Kafka consumer group, through the relay. */
async function relayLag() {
  const db = await createTestDatabase('kesher_bench');
  const sql = createPgSql({ connectionString: db.url, max: 10 });
  const store = await createSqlEventStore({ sql });
  const bus = createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-bench' });
  const category = `benchrelay${randomUUID().slice(0, 8)}`;
  const appendedAt = new Map<string, number>();
  const lags: number[] = [];
  const consumer = await bus.consume({
    groupId: `bench-${category}`,
    topics: [`kesher.${category}`],
    handler: async (message) => {
      const sent = appendedAt.get(fromMessage(message).metadata.eventId);
      if (sent !== undefined) lags.push(performance.now() - sent);
    },
  });
  const relay = createRelay({ eventStore: store, bus, sql, name: 'bench-relay' });
  await relay.start();
  // Warm up: topic creation and group join are one-off costs, not lag.
  const warm = benchEvent(-1);
  await store.appendToStream(`${category}-warmup`, [warm], { expectedRevision: 'any' });
  const warmDeadline = Date.now() + 60_000;
  while (lags.length === 0 && Date.now() < warmDeadline) {
    appendedAt.set(warm.metadata.eventId, performance.now());
    await new Promise((r) => setTimeout(r, 50));
  }
  lags.length = 0;
  const rate = 100;
  const total = rate * RELAY_SECONDS;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const e = benchEvent(i);
    await store.appendToStream(`${category}-${i % 20}`, [e], { expectedRevision: 'any' });
    appendedAt.set(e.metadata.eventId, performance.now());
  }
  const deadline = Date.now() + 30_000;
  while (lags.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await relay.stop();
  await consumer.stop();
  await bus.close();
  await store.close();
  await sql.close();
  await db.drop();
  lags.sort((a, b) => a - b);
  return {
    relay_lag_ms_p50: round(percentile(lags, 50)),
    relay_lag_ms_p99: round(percentile(lags, 99)),
    relay_events: total,
    relay_events_consumed: lags.length,
  };
}

function kafkaBrokerRss(): number | undefined {
  try {
    const pidFile = `${process.env.KESHER_CACHE_DIR ?? `${process.env.HOME}/.cache/kesher`}/kafka/kafka.pid`;
    return peakRssMb(Number(readFileSync(pidFile, 'utf8').trim()));
  } catch {
    return undefined;
  }
}

function postgresRss(): number | undefined {
  try {
    const pid = execFileSync('pgrep', ['-o', '-x', 'postgres']).toString().trim();
    return peakRssMb(Number(pid));
  } catch {
    return undefined;
  }
}

const results: Record<string, unknown> = { event_bytes: eventBytes };
const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);
if (want('append')) Object.assign(results, await appendThroughput());
if (want('replay')) Object.assign(results, await replayThroughput());
if (want('lag')) Object.assign(results, await commandToReadModelLag());
if (want('relay')) Object.assign(results, await relayLag());
results.peak_rss_mb = {
  bench_process: peakRssMb(),
  kafka_broker: kafkaBrokerRss(),
  postgres_postmaster: postgresRss(),
};
const a = results as Record<string, number> & {
  append_eps_16_writers: number;
  raw_insert_eps_16_writers: number;
  replay_eps: number;
  lag_ms_p50: number;
  lag_ms_p99: number;
  relay_lag_ms_p99: number;
};
results.goals = {
  append_eps_16_writers: {
    goal: '>= 5000 and >= 0.5 x raw_insert_eps_16_writers',
    met: a.append_eps_16_writers >= 5000 && a.append_eps_16_writers >= 0.5 * a.raw_insert_eps_16_writers,
    ratio_to_raw: round(a.append_eps_16_writers / a.raw_insert_eps_16_writers, 2),
  },
  replay_eps: { goal: '>= 20000', met: a.replay_eps >= 20000 },
  lag_ms_p50: { goal: '<= 20', met: a.lag_ms_p50 <= 20 },
  lag_ms_p99: { goal: '<= 100', met: a.lag_ms_p99 <= 100 },
  relay_lag_ms_p99: { goal: '<= 250', met: a.relay_lag_ms_p99 <= 250 },
};
results.command = 'make bench-platform';
writeResults(only.length ? `platform-partial-${only.join('-')}` : 'platform', results);
console.log(JSON.stringify(results, null, 2));
process.exit(0);
