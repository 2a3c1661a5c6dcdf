import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../platform/config/config.js';
import { composePlatform, type Platform } from '../main/compose-platform.js';
import { composeApi } from '../main/compose-api.js';
import { composeWorkers } from '../main/compose-workers.js';
import { createTestDatabase } from './test-database.js';
import { kafkaBrokers } from './kafka.js';
import type { AnswerProvider } from '../chat/answer-provider.port.js';

export interface ApiHarness {
  app: FastifyInstance;
  platform: Platform;
  workers: Awaited<ReturnType<typeof composeWorkers>>;
  dbUrl: string;
  close(): Promise<void>;
  /** Registers an owner and returns its bearer header. */
  owner(email?: string): Promise<{ authorization: string; accountId: string; email: string }>;
}

let owners = 0;

/**
 * The whole backend in this process on a fresh real Postgres database: API, projector, relay and the
 * workers, over the in-process bus (default) or a real Kafka broker (`bus: 'kafka'`).
 */
export async function createApiHarness(options: { bus?: 'in-process' | 'kafka'; env?: Record<string, string>; clientDistDir?: string; answerProvider?: AnswerProvider } = {}): Promise<ApiHarness> {
  const db = await createTestDatabase('kesher_api');
  const dataDir = mkdtempSync(join(tmpdir(), 'kesher-api-'));
  const config = loadConfig({
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    AUTH_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    NODE_ENV: 'test',
    RATE_LIMIT_PER_MINUTE: '100000',
    PORT: '8000',
    ...(options.bus === 'kafka' ? { KAFKA_BROKERS: kafkaBrokers().join(',') } : {}),
    ...options.env,
  });
  const platform = await composePlatform(config, { applicationName: 'kesher-test' });
  await platform.projector.start();
  const workers = await composeWorkers(platform, { consumerGroupSuffix: db.name, answerProvider: options.answerProvider });
  await workers.start();
  const { app } = await composeApi({
    platform,
    blobs: workers.blobs,
    knowledge: workers.knowledgeReads,
    runStreams: workers.runStreams,
    awaitReadModels: (position) => platform.projector.waitForPosition(position, { timeoutMs: 5000 }),
    projectionPositions: () => platform.projector.positions(),
    projectionPosition: (name) => platform.projector.positions()[name],
    clientDistDir: options.clientDistDir ?? join(dataDir, 'no-client'),
  });
  await app.ready();

  return {
    app,
    platform,
    workers,
    dbUrl: db.url,
    async owner(email = `owner${++owners}-${Date.now()}@example.com`) {
      const response = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email, password: 'Str0ng-Passw0rd!' } });
      if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
      const body = response.json() as { access_token: string; user: { uid: string } };
      return { authorization: `Bearer ${body.access_token}`, accountId: body.user.uid, email };
    },
    async close() {
      await app.close();
      await workers.stop();
      await platform.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
