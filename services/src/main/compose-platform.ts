import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allProjections } from '@kesher/projections/registry';
import { createKafkaBus } from '../platform/bus/kafka.bus.js';
import type { DeliveredMessage, MessageBus } from '../platform/bus/message-bus.port.js';
import { createSqlBus } from '../platform/bus/sql.bus.js';
import { createCommandHandler } from '../platform/commands/command-handler.js';
import type { Config } from '../platform/config/config.js';
import { createEventStoreDbEventStore } from '../platform/event-store/eventstoredb.event-store.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import { createPersonalDataCodec } from '../platform/event-store/personal-data.codec.js';
import { withPersonalDataOnBus } from '../platform/event-store/personal-data.bus.js';
import { withPersonalData } from '../platform/event-store/personal-data.event-store.js';
import { withEventSchemas } from '../platform/event-store/schema-checked.event-store.js';
import { loadSecretsKey } from '../platform/secrets/secrets-key.js';
import { createSqlSubjectKeys } from '../privacy/index.js';
import { createSqlEventStore } from '../platform/event-store/sql-event-store.js';
import { withRememberedStreams } from '../platform/event-store/remembered-streams.event-store.js';
import { createMetrics } from '../platform/metrics/metrics.js';
import { createProjectionRunner } from '../platform/projections/projection-runner.js';
import { createPgSql } from '../platform/sql/pg.sql.js';
import { createPgliteSql } from '../platform/sql/pglite.sql.js';
import { statementTallyFromEnv } from '../platform/sql/statement-tally.js';
import type { Sql } from '../platform/sql/sql.port.js';
import { runMigrations } from '../platform/sql/migrations.js';
import { createProcessLog, messageFields, type ProcessLog } from '../platform/process/process-log.js';
import { schemaModules } from './schema-modules.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';

/**
 * The one place that picks adapters from configuration. Everything downstream sees only ports.
 */
export async function composePlatform(
  config: Config,
  options: {
    applicationName: string;
    /** The read models' batching delay when PROJECTOR_BATCH_DELAY_MS is unset (default 0: at once). */
    projectorBatchDelayMs?: number;
    /** The process's log (default: pino at LOG_LEVEL, naming the process by its application name). */
    log?: ProcessLog;
  },
) {
  const log = options.log ?? createProcessLog(options.applicationName, { level: config.LOG_LEVEL });
  let sql: Sql;
  let dataDirLock: DataDirLock | undefined;
  if (config.DATABASE_URL) {
    sql = createPgSql({
      connectionString: config.DATABASE_URL,
      applicationName: options.applicationName,
      max: config.DATABASE_POOL_SIZE,
    });
  } else {
    const dataDir = resolve(config.DATA_DIR);
    mkdirSync(dataDir, { recursive: true });
    // PGlite does not lock its files: one process owns the directory, a second one refuses to start.
    dataDirLock = acquireDataDirLock(dataDir);
    sql = await createPgliteSql({ dataDir: join(dataDir, 'pglite') });
  }
  // Benchmarks only: counts what the process asks of the database (platform/sql/statement-tally.ts).
  sql = statementTallyFromEnv(sql);
  // Every module's tables before anything uses them; read models' tables come with the projector.
  await runMigrations(sql, schemaModules({ sqlEventStore: !config.EVENTSTORE_URL }));

  // Streams read lately are kept as stored (sealed), so a long conversation's next read asks only for its
  // newest events (platform/event-store/remembered-streams.event-store.ts).
  const rawStore: EventStore = withRememberedStreams(
    config.EVENTSTORE_URL
      ? createEventStoreDbEventStore({ connectionString: config.EVENTSTORE_URL })
      : await createSqlEventStore({ sql }),
  );
  // Personal fields are sealed per data subject at the log's boundary (docs/privacy.md): the adapter, and
  // the relay that copies it to the bus, see them sealed; everything else reads them opened.
  const subjectKeys = createSqlSubjectKeys({ sql, serverKey: loadSecretsKey(config) });
  await subjectKeys.listen();
  const personalData = createPersonalDataCodec(subjectKeys);
  const eventStore = withEventSchemas(withPersonalData(rawStore, personalData));

  const metrics = createMetrics();
  // A handler that keeps failing (or kills its process) parks its message after BUS_MAX_ATTEMPTS (docs/bus.md).
  const deliveries = {
    maxAttempts: config.BUS_MAX_ATTEMPTS,
    metrics,
    log: (line: string) => log.error(line),
    onHandlerError: (error: unknown, message: DeliveredMessage, attempt: number, retryInMs: number) =>
      log.warn({ err: error, ...messageFields(message), attempt, retryInMs }, 'bus: handler failed'),
  };
  const bus: MessageBus = withPersonalDataOnBus(
    config.KAFKA_BROKERS
      ? createKafkaBus({
          brokers: config.KAFKA_BROKERS.split(',').map((b) => b.trim()),
          clientId: options.applicationName,
          sql,
          deliveries,
        })
      : await createSqlBus({ sql, deliveries }),
    personalData,
  );

  const projector = createProjectionRunner({
    eventStore,
    sql,
    projections: allProjections,
    metrics,
    batchSize: config.PROJECTOR_BATCH_SIZE,
    batchDelayMs: config.PROJECTOR_BATCH_DELAY_MS ?? options.projectorBatchDelayMs ?? 0,
    onError: (name, error) => log.error({ err: error, projection: name }, 'projection failed; retrying'),
  });
  const handle = createCommandHandler({ eventStore });

  return {
    config,
    log,
    sql,
    eventStore,
    /** The log as stored, personal fields sealed: what the relay copies to the bus. */
    sealedEventStore: rawStore,
    subjectKeys,
    personalData,
    bus,
    metrics,
    projector,
    handle,
    adapters: { eventStore: eventStore.name, readModels: sql.kind, bus: bus.name },
    async close() {
      await projector.stop();
      await bus.close();
      await eventStore.close();
      await subjectKeys.stop();
      await sql.close();
      dataDirLock?.release();
    },
  };
}

export type Platform = Awaited<ReturnType<typeof composePlatform>>;
