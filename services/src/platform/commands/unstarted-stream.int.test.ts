import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { StreamDeletedError, type EventStore } from '../event-store/event-store.port.js';
import { createSqlEventStore } from '../event-store/sql-event-store.js';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { closeIfUnstarted } from './unstarted-stream.js';

const gate = await postgresAvailability();
const note = () => ({
  type: 'LegacyNote',
  data: {},
  metadata: {
    eventId: randomUUID(),
    correlationId: 'c',
    causationId: 'c',
    actor: { kind: 'system' as const, id: 't' },
    timestamp: new Date().toISOString(),
    schemaVersion: 1,
  },
});

describe.skipIf(!gate.available)(
  `closing a stream that has not begun${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let store: EventStore;
    beforeAll(async () => {
      db = await createTestDatabase();
      sql = createPgSql({ connectionString: db.url });
      store = await createSqlEventStore({ sql });
    });
    afterAll(async () => {
      await store?.close();
      await sql?.close();
      await db?.drop();
    });

    it('closes a stream with no event, so a create on its way fails; again it is still closed', async () => {
      const stream = `h5test-${randomUUID()}`;
      expect(await closeIfUnstarted(store, stream)).toBe('closed');
      await expect(store.appendToStream(stream, [note()], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        StreamDeletedError,
      );
      expect(await closeIfUnstarted(store, stream)).toBe('closed');
    });

    it('leaves a begun stream alone, also one that began between the read and the tombstone', async () => {
      const stream = `h5test-${randomUUID()}`;
      await store.appendToStream(stream, [note()], { expectedRevision: 'no_stream' });
      expect(await closeIfUnstarted(store, stream)).toBe('started');
      // The read saw nothing; the first event landed before the tombstone: the log says it began.
      const late = new Proxy(store, {
        get: (target, key) => (key === 'readStream' ? async () => [] : Reflect.get(target, key, target)),
      });
      expect(await closeIfUnstarted(late, stream)).toBe('started');
      expect(await store.readStream(stream)).toHaveLength(1);
    });
  },
);
