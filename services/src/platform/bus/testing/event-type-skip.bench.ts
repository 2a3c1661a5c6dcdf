/**
 * What declaring `eventTypes` saves a consumer of a busy topic: 20,000 messages of which 1 in 100 is of
 * the type it handles (a crawl's request among its progress events), drained by a consumer that parses
 * and drops the rest, and by one that declares its type. Run (Postgres, and Kafka for `kafka`):
 *   cd services && npx tsx src/platform/bus/testing/event-type-skip.bench.ts [sql|kafka]
 */
import { randomUUID } from 'node:crypto';
import { kafkaBrokers } from '../../../testing/kafka.js';
import { createTestDatabase } from '../../../testing/test-database.js';
import { createPgSql } from '../../sql/pg.sql.js';
import { EVENT_TYPE_HEADER } from '../event-types.js';
import { createKafkaBus } from '../kafka.bus.js';
import { createSqlBus } from '../sql.bus.js';

const adapter = process.argv[2] === 'kafka' ? 'kafka' : 'sql';
const total = 20_000;
const wantedEvery = 100;

const db = await createTestDatabase('kesher_bench_skip');
const sql = createPgSql({ connectionString: db.url });
const bus =
  adapter === 'kafka'
    ? createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-bench-skip', sql })
    : await createSqlBus({ sql });
const topic = `bench-skip-${randomUUID().slice(0, 8)}`;
// About the size of a relayed PageFetched event.
const value = JSON.stringify({
  eventId: randomUUID(),
  streamId: 'crawl-x',
  type: 'PageFetched',
  data: {
    url: 'https://example.com/a/long/path',
    links: Array.from({ length: 20 }, (_, i) => `https://example.com/${i}`),
  },
});
for (let i = 0; i < total; i += 500) {
  await bus.publish(
    topic,
    Array.from({ length: 500 }, (_, j) => ({
      key: `crawl-${(i + j) % 7}`,
      value,
      headers: { [EVENT_TYPE_HEADER]: (i + j) % wantedEvery === 0 ? 'CrawlRequested' : 'PageFetched' },
    })),
  );
}
// As a running deployment's autovacuum would have.
if (adapter === 'sql') await sql.query('ANALYZE bus_messages');

for (const declared of [false, true, false, true]) {
  let handed = 0;
  let wanted = 0;
  const started = performance.now();
  let consumer: Awaited<ReturnType<typeof bus.consume>> | undefined;
  await new Promise<void>((resolve) => {
    void bus
      .consume({
        groupId: `bench-skip-${randomUUID().slice(0, 8)}`,
        topics: [topic],
        ...(declared ? { eventTypes: ['CrawlRequested'] } : {}),
        handler: async (message) => {
          handed++;
          const event = JSON.parse(message.value) as unknown;
          if (event && message.headers[EVENT_TYPE_HEADER] === 'CrawlRequested' && ++wanted === total / wantedEvery)
            resolve();
        },
      })
      .then((running) => (consumer = running));
  });
  const ms = performance.now() - started;
  await consumer?.stop();
  console.log(
    `${adapter} bus: ${total} messages, 1 in ${wantedEvery} of the consumer's type, ${declared ? 'eventTypes declared' : 'parsed and dropped'}: ${ms.toFixed(0)} ms, ${handed} handed to the handler`,
  );
}
await bus.close();
await sql.close();
await db.drop();
process.exit(0);
