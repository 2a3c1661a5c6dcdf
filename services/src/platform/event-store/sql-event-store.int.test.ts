import { createPgSql } from '../sql/pg.sql.js';
import { createPgliteSql } from '../sql/pglite.sql.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { eventStoreContract } from './event-store.contract.js';
import { createSqlEventStore } from './sql-event-store.js';

eventStoreContract(
  'postgres',
  async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url, max: 25 });
    const store = await createSqlEventStore({ sql });
    return {
      store,
      teardown: async () => {
        await store.close();
        await sql.close();
        await db.drop();
      },
    };
  },
  await postgresAvailability(),
);

eventStoreContract('pglite (embedded)', async () => {
  const sql = await createPgliteSql();
  const store = await createSqlEventStore({ sql });
  return {
    store,
    teardown: async () => {
      await store.close();
      await sql.close();
    },
  };
});
