import { randomBytes } from 'node:crypto';
import { createSqlSubjectKeys } from '../../privacy/keys/sql-subject-keys.js';
import { createTestPglite } from '../../testing/test-database.js';
import { createPersonalDataCodec } from './personal-data.codec.js';
import { withPersonalData } from './personal-data.event-store.js';
import { createSqlEventStore } from './sql-event-store.js';
import { eventStoreContract } from './testing/event-store.contract.js';

// The event store's contract holds through the personal-data codec as composePlatform wraps the embedded
// default (the EventStoreDB adapter's run is in eventstoredb.event-store.int.test.ts).
eventStoreContract('pglite (embedded) + personal-data codec', async () => {
  const sql = await createTestPglite();
  const keys = createSqlSubjectKeys({ sql, serverKey: randomBytes(32) });
  const store = withPersonalData(await createSqlEventStore({ sql }), createPersonalDataCodec(keys));
  return {
    store,
    teardown: async () => {
      await store.close();
      await sql.close();
    },
  };
});
