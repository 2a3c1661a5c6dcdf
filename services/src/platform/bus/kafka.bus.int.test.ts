import { kafkaAvailability, kafkaBrokers } from '../../testing/kafka.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createPgSql } from '../sql/pg.sql.js';
import { createKafkaBus } from './kafka.bus.js';
import { createMetrics } from '../metrics/metrics.js';
import { messageBusContract } from './testing/message-bus.contract.js';

const kafka = await kafkaAvailability();
const postgres = await postgresAvailability();

// The bus as the composition roots make it: with the deployment's database for its delivery ledger.
messageBusContract(
  'kafka',
  async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    const metrics = createMetrics();
    const openBus = () =>
      createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-contract-test', sql, deliveries: { metrics } });
    let bus = openBus();
    return {
      bus,
      metrics,
      teardown: async () => {
        await bus.close();
        await sql.close();
        await db.drop();
      },
      restart: async () => {
        await bus.close();
        bus = openBus();
        return bus;
      },
    };
  },
  kafka.available ? postgres : kafka,
);
