/**
 * A consumer process for the crash tests (dead-letters.crash.int.test.ts): it handles messages of one
 * topic and, on a message marked `poison`, kills itself with SIGKILL — no cleanup, as an out-of-memory
 * kill or a segfault in a parser would. Everything it does is appended to LOG_FILE synchronously, so
 * the lines survive the kill. SIGTERM stops it cleanly.
 *
 * Environment: BUS (sql | kafka), DATABASE_URL, TOPIC, GROUP, MAX_ATTEMPTS, CONCURRENCY, LOG_FILE, KAFKA_BROKERS.
 */
import { appendFileSync } from 'node:fs';
import { createPgSql } from '../../sql/pg.sql.js';
import { createKafkaBus } from '../kafka.bus.js';
import type { DeliveredMessage } from '../message-bus.port.js';
import { createSqlBus } from '../sql.bus.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const logFile = env('LOG_FILE');
const log = (line: string) => appendFileSync(logFile, `${line}\n`);
const sql = createPgSql({ connectionString: env('DATABASE_URL'), max: 4 });
const deliveries = { maxAttempts: Number(env('MAX_ATTEMPTS')), log: () => {}, onHandlerError: () => {} };
const bus =
  env('BUS') === 'kafka'
    ? createKafkaBus({
        brokers: env('KAFKA_BROKERS').split(','),
        clientId: 'kesher-crash-test',
        sql,
        deliveries,
        sessionTimeoutMs: 6_000,
      })
    : await createSqlBus({ sql, deliveries });

const parse = (message: DeliveredMessage) => JSON.parse(message.value) as { n: number; poison?: boolean };

await bus.consume({
  groupId: env('GROUP'),
  topics: [env('TOPIC')],
  concurrency: Number(env('CONCURRENCY')),
  handler: async (message) => {
    const { n, poison } = parse(message);
    log(`attempt ${message.key} ${n}`);
    if (poison) process.kill(process.pid, 'SIGKILL');
    // Give the other slots a turn, so that innocent messages are in flight when the poison kills us.
    await new Promise((resolve) => setImmediate(resolve));
    log(`handled ${message.key} ${n}`);
  },
  onParked: async (message, reason) => log(`parked ${message.key} ${parse(message).n} ${reason}`),
});
log('consuming');

process.once('SIGTERM', () => {
  void bus
    .close()
    .then(() => sql.close())
    .finally(() => process.exit(0));
});
