import { randomBytes } from 'node:crypto';
import { createSqlSubjectKeys } from '../../privacy/keys/sql-subject-keys.js';
import { createTestPglite } from '../../testing/test-database.js';
import { createPersonalDataCodec } from './personal-data.codec.js';
import { withPersonalData } from './personal-data.event-store.js';
import { execFile } from 'node:child_process';
import { BACKWARDS, END, EventStoreDBClient } from '@eventstore/db-client';
import { gateService } from '../../testing/service-gate.js';
import { eventStoreContract } from './testing/event-store.contract.js';
import { createEventStoreDbEventStore } from './eventstoredb.event-store.js';

/**
 * The contract against a real EventStoreDB: EVENTSTORE_URL when set, else a throwaway container when a
 * Docker engine answers and testcontainers is installed. Neither exists on every machine (CI included),
 * so the gate does not fail CI; the suite then reports itself as not run, with the reason.
 */

const IMAGE = 'eventstore/eventstore:24.10';
const PORT = 2113;

/** The slice of testcontainers used here; the package is optional, so its types are not available. */
interface StartedContainer {
  getHost(): string;
  getMappedPort(port: number): number;
  stop(): Promise<unknown>;
}
interface ContainerBuilder {
  withEnvironment(env: Record<string, string>): ContainerBuilder;
  withExposedPorts(...ports: number[]): ContainerBuilder;
  start(): Promise<StartedContainer>;
}
interface TestcontainersModule {
  GenericContainer: new (image: string) => ContainerBuilder;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Streaming reads in client 6.x ignore the deadline option, hence the explicit timeout. */
async function probe(connectionString: string, ms: number): Promise<void> {
  const client = EventStoreDBClient.connectionString(connectionString);
  try {
    await withTimeout(
      (async () => {
        for await (const _ of client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) void _;
      })(),
      ms,
      `EventStoreDB at ${connectionString}`,
    );
  } finally {
    await client.dispose().catch(() => undefined);
  }
}

const dockerAnswers = () =>
  new Promise<boolean>((resolve) => {
    execFile('docker', ['info'], { timeout: 5_000 }, (error) => resolve(!error));
  });

async function startContainer(): Promise<{ connectionString: string; stop: () => Promise<void> }> {
  let testcontainers: TestcontainersModule;
  try {
    // A variable specifier keeps TypeScript from resolving a package that is not installed.
    const specifier = 'testcontainers';
    testcontainers = (await import(specifier)) as TestcontainersModule;
  } catch (error) {
    throw new Error(
      `EVENTSTORE_URL is not set and testcontainers cannot be loaded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const container = await new testcontainers.GenericContainer(IMAGE)
    .withEnvironment({ EVENTSTORE_INSECURE: 'true', EVENTSTORE_RUN_PROJECTIONS: 'None', EVENTSTORE_MEM_DB: 'true' })
    .withExposedPorts(PORT)
    .start();
  const connectionString = `esdb://${container.getHost()}:${container.getMappedPort(PORT)}?tls=false`;
  const stop = async () => {
    await container.stop();
  };
  // The port opens before the node accepts gRPC reads; give it a little while.
  for (let attempt = 1; ; attempt++) {
    try {
      await probe(connectionString, 3_000);
      return { connectionString, stop };
    } catch (error) {
      if (attempt >= 20) {
        await stop().catch(() => undefined);
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

let server: { connectionString: string; stop?: () => Promise<void> } | undefined;

const gate = await gateService(
  'EventStoreDB',
  async () => {
    const url = process.env.EVENTSTORE_URL;
    if (url) {
      await probe(url, 5_000).catch((error: unknown) => {
        throw new Error(
          `EVENTSTORE_URL is set but ${url} does not answer: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      server = { connectionString: url };
    } else if (await dockerAnswers()) {
      server = await startContainer();
    } else {
      throw new Error('EVENTSTORE_URL is not set and no Docker engine answers');
    }
  },
  { requiredInCi: false },
);

eventStoreContract(
  'eventstoredb',
  async () => {
    const store = createEventStoreDbEventStore({ connectionString: server!.connectionString });
    return {
      store,
      teardown: async () => {
        await store.close();
        await server?.stop?.();
      },
    };
  },
  gate,
);

// The same contract through the personal-data codec (docs/privacy.md), as composePlatform wraps this
// adapter: one codec for every adapter, keys in the embedded database here.
eventStoreContract(
  'eventstoredb + personal-data codec',
  async () => {
    const sql = await createTestPglite();
    const keys = createSqlSubjectKeys({ sql, serverKey: randomBytes(32) });
    const store = withPersonalData(
      createEventStoreDbEventStore({ connectionString: server!.connectionString }),
      createPersonalDataCodec(keys),
    );
    return {
      store,
      teardown: async () => {
        await store.close();
        await sql.close();
      },
    };
  },
  gate,
);
