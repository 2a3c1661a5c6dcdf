import { randomUUID } from 'node:crypto';
import { streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantDecider } from '../../domain/assistant/assistant.decider.js';
import { threadDecider } from '../../domain/thread/thread.decider.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { sampleProfile } from '../../testing/platform-fixture.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { withEventSchemas } from '../event-store/schema-checked.event-store.js';
import { createSqlEventStore } from '../event-store/sql-event-store.js';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { aggregateStream } from './aggregate-stream.js';
import { createCommandHandler } from './command-handler.js';

const gate = await postgresAvailability();

const context = {
  actor: { kind: 'system', id: 'test' } as const,
  correlationId: 'aggregate-stream',
  now: new Date('2026-03-01T10:00:00Z'),
};
const metadata = () => ({
  eventId: randomUUID(),
  correlationId: 'c',
  causationId: 'c',
  actor: { kind: 'system' as const, id: 't' },
  timestamp: new Date().toISOString(),
  schemaVersion: 1,
});

describe.skipIf(!gate.available)(
  `loading an aggregate (aggregateStream)${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let raw: EventStore;
    let store: EventStore;
    beforeAll(async () => {
      db = await createTestDatabase();
      sql = createPgSql({ connectionString: db.url });
      raw = await createSqlEventStore({ sql });
      store = withEventSchemas(raw);
    });
    afterAll(async () => {
      await raw?.close();
      await sql?.close();
      await db?.drop();
    });

    it('folds the aggregate’s own events, typed, and gives the revision to append after', async () => {
      const assistantId = randomUUID();
      const stream = streamIds.assistant(assistantId);
      expect(await aggregateStream(store, assistantDecider, stream)).toEqual({
        state: { status: 'none' },
        revision: 'no_stream',
        events: [],
      });

      const handle = createCommandHandler({ eventStore: store });
      await handle(
        assistantDecider,
        stream,
        {
          type: 'CreateAssistant',
          data: {
            assistantId,
            numericId: 1,
            externalId: `asst_${'a'.repeat(24)}`,
            ownerId: 'o1',
            profile: sampleProfile(),
          },
        },
        context,
      );
      const loaded = await aggregateStream(store, assistantDecider, stream);
      expect(loaded.revision).toBe(0n);
      expect(loaded.state).toMatchObject({ status: 'active', ownerId: 'o1' });
      // Typed without a cast: narrowing on `type` gives the event's own data.
      const created = loaded.events.find((event) => event.type === 'AssistantCreated');
      expect(created?.type === 'AssistantCreated' && created.data.profile.name).toBe(sampleProfile().name);
      expect(created?.streamPosition).toBe(0n);
    });

    it('skips what is not the aggregate’s, yet appends after it (no conflict with the stream’s real revision)', async () => {
      const threadId = randomUUID();
      const stream = streamIds.thread(threadId);
      const handle = createCommandHandler({ eventStore: store });
      await handle(
        threadDecider,
        stream,
        {
          type: 'StartThread',
          data: {
            threadId,
            assistantId: 'a1',
            assistantOwnerId: 'o1',
            ownerId: 'o1',
            visitorSessionHash: null,
            isPublic: false,
            channel: 'app',
          },
        },
        context,
      );
      // A fact this aggregate does not know, in its stream (an older writer, another module's marker).
      await raw.appendToStream(stream, [{ type: 'LegacyNote', data: { note: 'kept' }, metadata: metadata() }], {
        expectedRevision: 0n,
      });
      const loaded = await aggregateStream(store, threadDecider, stream);
      expect(loaded.revision).toBe(1n);
      expect(loaded.events.map((event) => event.type)).toEqual(['ThreadStarted']);
      const renamed = await handle(
        threadDecider,
        stream,
        { type: 'RenameThread', data: { requester: { ownerId: 'o1' }, title: 'Renamed' } },
        context,
      );
      expect(renamed.appended?.nextExpectedRevision).toBe(2n);
    });
  },
);
