import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../../testing/test-database.js';
import { messageBusContract } from './testing/message-bus.contract.js';
import { createSqlBus } from './sql.bus.js';

/** The in-process bus on a given database; `restart` reopens it on the same tables. */
async function busOn(sql: Sql, release: () => Promise<void>) {
  let bus = await createSqlBus({ sql });
  return {
    bus,
    teardown: async () => {
      await bus.close();
      await sql.close();
      await release();
    },
    restart: async () => {
      await bus.close();
      bus = await createSqlBus({ sql });
      return bus;
    },
  };
}

messageBusContract('in-process (PGlite, the embedded default)', async () => busOn(await createTestPglite(), async () => {}));

messageBusContract(
  'in-process on Postgres',
  async () => {
    const db = await createTestDatabase();
    return busOn(createPgSql({ connectionString: db.url }), db.drop);
  },
  await postgresAvailability(),
);
