import { createPgliteSql } from '../sql/pglite.sql.js';
import { createPgSql } from '../sql/pg.sql.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { messageBusContract } from './message-bus.contract.js';
import { createSqlBus } from './sql.bus.js';

messageBusContract('in-process (PGlite, the embedded default)', async () => {
  const sql = await createPgliteSql();
  let bus = await createSqlBus({ sql });
  return {
    bus,
    teardown: async () => {
      await bus.close();
      await sql.close();
    },
    restart: async () => {
      await bus.close();
      bus = await createSqlBus({ sql });
      return bus;
    },
  };
});

messageBusContract(
  'in-process on Postgres',
  async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    let bus = await createSqlBus({ sql });
    return {
      bus,
      teardown: async () => {
        await bus.close();
        await sql.close();
        await db.drop();
      },
      restart: async () => {
        await bus.close();
        bus = await createSqlBus({ sql });
        return bus;
      },
    };
  },
  await postgresAvailability(),
);
