import { randomUUID } from 'node:crypto';
import type { AssistantProfile, NewEvent } from '@kesher/contracts';
import { allProjections } from '@kesher/projections/registry';
import { createCommandHandler } from '../platform/commands/command-handler.js';
import { withEventSchemas } from '../platform/event-store/schema-checked.event-store.js';
import { createSqlEventStore } from '../platform/event-store/sql-event-store.js';
import { createMetrics } from '../platform/metrics/metrics.js';
import { createProjectionRunner } from '../platform/projections/projection-runner.js';
import { createPgSql } from '../platform/sql/pg.sql.js';
import { createTestDatabase } from './test-database.js';

/** A fresh Postgres database with the SQL event store on it, for tests of what reads and writes the log. */
export async function createPostgresEventStore() {
  const db = await createTestDatabase();
  const sql = createPgSql({ connectionString: db.url });
  const store = await createSqlEventStore({ sql });
  return {
    db,
    sql,
    store,
    async close() {
      await store.close();
      await sql.close();
      await db.drop();
    },
  };
}

/** A whole write+read path on a fresh Postgres database: event store, command handler, projections. */
export async function createPostgresPlatform() {
  const db = await createTestDatabase();
  const sql = createPgSql({ connectionString: db.url });
  const eventStore = withEventSchemas(await createSqlEventStore({ sql }));
  const metrics = createMetrics();
  const runner = createProjectionRunner({ eventStore, sql, projections: allProjections, metrics });
  const handle = createCommandHandler({ eventStore });
  return {
    db,
    sql,
    eventStore,
    metrics,
    runner,
    handle,
    async close() {
      await runner.stop();
      await eventStore.close();
      await sql.close();
      await db.drop();
    },
  };
}

export const sampleProfile = (overrides: Partial<AssistantProfile> = {}): AssistantProfile => ({
  name: 'Bakery helper',
  description: 'Answers questions about our bakery',
  instructions: 'Answer from the menu only',
  chat_limit: 100,
  website_url: 'https://bakery.example.com',
  avatar_url: null,
  web_crawler: { enabled: false, website_url: null, max_pages: 2000, max_depth: 10, delete_orphaned_pages: false },
  payment_processing: { enabled: false, sales_prompt: '' },
  ...overrides,
});

/**
 * The `n`th assistant's creation as the log stores it, for tests that fill the log without the API (a
 * projector's crash and restart tests): `a<n>` of `owner`, unless told otherwise.
 */
export const assistantCreatedEvent = (
  n: number,
  options: { assistantId?: string; ownerId?: string; metadata?: NewEvent['metadata'] } = {},
): NewEvent => ({
  type: 'AssistantCreated',
  data: {
    assistantId: options.assistantId ?? `a${n}`,
    numericId: n + 1,
    externalId: `asst_${String(n).padStart(24, '0')}`,
    ownerId: options.ownerId ?? 'owner',
    profile: sampleProfile({ name: `Assistant ${n}`, description: 'd', instructions: 'i', website_url: null }),
  },
  metadata: options.metadata ?? {
    eventId: randomUUID(),
    correlationId: 'c',
    causationId: 'c',
    actor: { kind: 'system', id: 't' },
    timestamp: new Date().toISOString(),
    schemaVersion: 1,
  },
});
