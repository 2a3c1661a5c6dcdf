import type { RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { counterBatch } from '../shared/counter-upsert.js';
import { factsOf } from '../shared/facts.js';

/** Refusals by plan limits: each one (newest first per owner), and how many per owner, day and kind. */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  const violated = factsOf(events, 'LimitViolated');
  if (violated.length === 0) return;
  await db.query(
    `INSERT INTO analytics_limit_violations (violation_id, owner_id, kind, limit_value, used, requested, assistant_id, refused, occurred_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::float8[], $7::text[], $8::text[], $9::timestamptz[])
     ON CONFLICT (violation_id) DO NOTHING`,
    [
      violated.map((v) => v.data.violationId),
      violated.map((v) => v.data.ownerId),
      violated.map((v) => v.data.kind),
      violated.map((v) => v.data.limit),
      violated.map((v) => v.data.used),
      violated.map((v) => v.data.requested),
      violated.map((v) => v.data.assistantId),
      violated.map((v) => v.data.refused),
      violated.map((v) => v.event.metadata.timestamp),
    ],
  );
  const daily = counterBatch({
    table: 'analytics_limit_violations_daily',
    keys: { owner_id: 'text', day: 'date', kind: 'text' },
    counters: { violations: 'int' },
  });
  for (const v of violated) daily.add({ owner_id: v.data.ownerId, day: v.day, kind: v.data.kind }, { violations: 1 });
  await daily.write(db);
}

export const limitViolationsProjection: Projection = {
  name: 'analytics-limits',
  version: 1,
  eventTypes: ['LimitViolated'],
  tables: ['analytics_limit_violations', 'analytics_limit_violations_daily'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS analytics_limit_violations (
  violation_id text PRIMARY KEY,
  owner_id text NOT NULL,
  kind text NOT NULL,
  limit_value float8 NOT NULL,
  used float8 NOT NULL,
  requested float8,
  assistant_id text,
  refused text NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS analytics_limit_violations_owner ON analytics_limit_violations (owner_id, occurred_at DESC);
CREATE TABLE IF NOT EXISTS analytics_limit_violations_daily (
  owner_id text NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  violations int NOT NULL,
  PRIMARY KEY (owner_id, day, kind)
);
`,
    },
  ],
  apply: applyBatch,
};
