import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kafkaAvailability, kafkaBrokers } from '../../testing/kafka.js';
import { exited, repoRoot, waitUntil } from '../../testing/processes.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createPgSql } from '../sql/pg.sql.js';
import { createKafkaBus } from './kafka.bus.js';
import type { MessageBus, OutgoingMessage } from './message-bus.port.js';
import { createSqlBus } from './sql.bus.js';

const child = fileURLToPath(new URL('./testing/crash-prone-consumer.ts', import.meta.url));
const postgres = await postgresAvailability();
const kafka = await kafkaAvailability();
const maxAttempts = 3;

/**
 * A message whose handler kills the process (kill -9: no cleanup, no catch) must not crash-loop its
 * consumer: the attempts are counted durably, so after `maxAttempts` deaths the next process parks it
 * without calling the handler again, and goes on. Messages that were merely in flight beside it when
 * the process died are handled, not parked.
 */
async function crashUntilParked(
  busKind: 'sql' | 'kafka',
  openBus: (sql: ReturnType<typeof createPgSql>) => Promise<MessageBus>,
) {
  const db = await createTestDatabase();
  const sql = createPgSql({ connectionString: db.url });
  const bus = await openBus(sql);
  const dir = mkdtempSync(join(tmpdir(), 'kesher-crash-'));
  const logFile = join(dir, 'consumer.log');
  const run = randomUUID().slice(0, 8);
  const topic = `crash-${run}`;
  const groupId = `crash-${run}`;
  try {
    const message = (key: string, n: number, poison = false): OutgoingMessage => ({
      key,
      value: JSON.stringify({ n, poison }),
    });
    await bus.publish(topic, [
      message('a', 0),
      message('a', 1),
      message('p', 0, true),
      message('p', 1),
      ...[0, 1, 2, 3].map((n) => message(`b${n}`, n)),
    ]);
    const lines = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : []);
    const everythingDone = () => {
      const log = lines();
      return (
        log.some((l) => l.startsWith('parked p 0')) &&
        ['a 0', 'a 1', 'p 1', 'b0 0', 'b1 1', 'b2 2', 'b3 3'].every((m) => log.includes(`handled ${m}`))
      );
    };

    const deaths: (string | null)[] = [];
    for (let start = 1; start <= maxAttempts + 2 && !everythingDone(); start++) {
      const consumer = spawn(process.execPath, ['--import', 'tsx', child], {
        cwd: repoRoot,
        env: {
          ...process.env,
          BUS: busKind,
          DATABASE_URL: db.url,
          TOPIC: topic,
          GROUP: groupId,
          MAX_ATTEMPTS: String(maxAttempts),
          CONCURRENCY: '2',
          LOG_FILE: logFile,
          KAFKA_BROKERS: kafkaBrokers().join(','),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      consumer.stderr.on('data', (chunk) => (stderr += chunk));
      const exit = exited(consumer);
      const outcome = await Promise.race([
        exit.then(() => 'died' as const),
        waitUntil(everythingDone, { timeoutMs: 90_000, what: 'the consumer to finish' }).then(() => 'done' as const),
      ]);
      if (outcome === 'done') {
        consumer.kill('SIGTERM');
        await exit;
        break;
      }
      deaths.push(consumer.signalCode);
      if (consumer.signalCode !== 'SIGKILL')
        throw new Error(`the consumer exited on its own (${consumer.exitCode}): ${stderr}`);
    }

    const log = lines();
    // Killed by the poison on each of its maxAttempts attempts; the next process parked it unopened.
    expect(deaths).toEqual(Array(maxAttempts).fill('SIGKILL'));
    expect(log.filter((l) => l === 'attempt p 0')).toHaveLength(maxAttempts);
    expect(log.filter((l) => l.startsWith('parked'))).toEqual([
      `parked p 0 the consumer stopped ${maxAttempts} times while handling it (its process died or was killed)`,
    ]);
    // The rest of its key comes after it; nothing else was given up on.
    expect(log.indexOf('handled p 1')).toBeGreaterThan(log.findIndex((l) => l.startsWith('parked p 0')));
    for (const m of ['a 0', 'a 1', 'b0 0', 'b1 1', 'b2 2', 'b3 3']) expect(log).toContain(`handled ${m}`);

    const letters = await bus.deadLetters({ groupId });
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      topic,
      key: 'p',
      attempts: maxAttempts,
      value: JSON.stringify({ n: 0, poison: true }),
    });
  } finally {
    await bus.close();
    await sql.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!postgres.available)(
  `a message that kills its consumer (in-process bus)${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    it('is parked after maxAttempts deaths, and the consumer goes on', { timeout: 120_000 }, async () => {
      await crashUntilParked('sql', (sql) => createSqlBus({ sql }));
    });
  },
);

const both = postgres.available && kafka.available;
describe.skipIf(!both)(
  `a message that kills its consumer (Kafka)${both ? '' : ` (not run: ${postgres.available ? kafka.reason : postgres.reason})`}`,
  () => {
    it('is parked after maxAttempts deaths, and the consumer goes on', { timeout: 240_000 }, async () => {
      await crashUntilParked('kafka', async (sql) =>
        createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-crash-test', sql }),
      );
    });
  },
);
