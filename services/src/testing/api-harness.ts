import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
import { composeStandaloneApi } from '../main/compose-standalone-api.js';
import type { PlanOf } from '../plans/plan-book.js';
import type { OutboxMessage } from '../mail/index.js';
import { waitUntil } from './processes.js';
import type { SubjectErasure } from '../privacy/subject-erasure.port.js';

/** The newest link whose path is `path` in the outbox's mail to `to`, once there is one. */
export function outboxLink(outbox: string, to: string, path: string): URL | undefined {
  if (!existsSync(outbox)) return undefined;
  const mails = readdirSync(outbox)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .reverse()
    .map((name) => JSON.parse(readFileSync(join(outbox, name), 'utf8')) as OutboxMessage);
  for (const mail of mails.filter((m) => m.to === to)) {
    const link = (mail.text.match(/https?:\/\/\S+/g) ?? []).map((l) => new URL(l)).find((url) => url.pathname === path);
    if (link) return link;
  }
  return undefined;
}

export interface ApiHarness {
  app: FastifyInstance;
  platform: Platform;
  workers: Awaited<ReturnType<typeof composeWorkers>>;
  dbUrl: string;
  /** What a Kesher process started beside the harness (replay, export) needs to share its data: the database and the secrets it seals with. */
  childEnv: Record<string, string>;
  /**
   * Another API process on the same database, as api.main wires one (its own platform and connection
   * pool; no projector, no workers): what a second replica behind a load balancer is. Closed with the harness.
   */
  replica(): Promise<FastifyInstance>;
  close(): Promise<void>;
  /**
   * Registers an owner and returns its bearer header. `verified` also follows the verification link the
   * server mailed (read from the outbox under DATA_DIR, so not with SMTP_URL set), e.g. for an operator.
   */
  owner(
    email?: string,
    options?: { verified?: boolean },
  ): Promise<{ authorization: string; accountId: string; email: string }>;
}

let owners = 0;

/**
 * The whole backend in this process on a fresh real Postgres database: API, projector, relay and the
 * workers, over the in-process bus (default) or a real Kafka broker (`bus: 'kafka'`).
 *
 * `topology: 'split'` builds them as the production topology does — the API (api.main's wiring), the
 * projector and the workers each on their own platform and connection pool, sharing only the database
 * (and the bus) — so nothing reaches the API except through Postgres, as between processes.
 */
export async function createApiHarness(
  options: {
    bus?: 'in-process' | 'kafka';
    topology?: 'one-process' | 'split';
    env?: Record<string, string>;
    clientDistDir?: string;
    answerProvider?: AnswerProvider;
    clock?: () => Date;
    planOf?: PlanOf;
    erasure?: SubjectErasure;
    /**
     * Whether a GET first waits for the read models to apply everything the log held when it arrived
     * (default true; see below). Off for tests that hold a read model back on purpose to see what the
     * API answers meanwhile.
     */
    settleReads?: boolean;
  } = {},
): Promise<ApiHarness> {
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
  const clientDistDir = options.clientDistDir ?? join(dataDir, 'no-client');
  const split = options.topology === 'split';
  const platform = await composePlatform(config, { applicationName: split ? 'kesher-api' : 'kesher-test' });
  const projectorPlatform = split ? await composePlatform(config, { applicationName: 'kesher-projector' }) : platform;
  const workersPlatform = split ? await composePlatform(config, { applicationName: 'kesher-workers' }) : platform;
  await projectorPlatform.projector.start();
  // No consumer-group suffix of its own: on Kafka the product's default (the deployment's id) keeps
  // each test database's workers out of the others' groups, so every Kafka suite checks that it does.
  const workers = await composeWorkers(workersPlatform, {
    answerProvider: options.answerProvider,
    // A test's own plans reach the channels worker too, which checks the plan for every customer's message.
    channelsPlanOf: options.planOf,
    // One clock for the whole process: a run requested at the API's fixed time is not past its deadline for the runner.
    clock: options.clock,
    // The privacy features that erase (retention, a channel customer's /forget) run with the test's erasure.
    erasure: options.erasure,
    retentionScheduler: false,
  });
  await workers.start();
  let closeApi: () => Promise<void>;
  let app: FastifyInstance;
  if (split) {
    const api = await composeStandaloneApi(platform, { clientDistDir, clock: options.clock });
    app = api.app;
    closeApi = api.close;
  } else {
    ({ app } = await composeApi({
      platform,
      blobs: workers.blobs,
      knowledge: workers.knowledgeReads,
      runOutput: workers.runOutput,
      readModels: platform.projector.progress,
      readYourWritesTimeoutMs: 5000,
      clientDistDir,
      clock: options.clock,
      planOf: options.planOf,
      erasure: options.erasure,
    }));
    closeApi = () => app.close();
  }
  if (options.settleReads !== false) {
    // A test that reads after something happened (its own write, or a worker's answer it waited for on
    // the write side) means "once the read models show it". The product reads its read models as they
    // are; so that tests wait on the log's position, never on the clock or a retry loop, every GET here
    // first waits until the projector has applied every event committed before it (bounded: a stopped
    // projector answers at once, a held one after the limit, and the request then reads what is there).
    app.addHook('onRequest', async (request) => {
      if (request.method !== 'GET') return;
      const head = await platform.eventStore.headPosition();
      await projectorPlatform.projector.waitForPosition(head, { timeoutMs: 20_000 });
    });
  }
  await app.ready();
  const replicas: (() => Promise<void>)[] = [];

  return {
    app,
    platform,
    workers,
    dbUrl: db.url,
    childEnv: {
      DATABASE_URL: db.url,
      AUTH_SECRET: config.AUTH_SECRET!,
      ...(config.SECRETS_KEY ? { SECRETS_KEY: config.SECRETS_KEY } : {}),
    },
    async replica() {
      const replicaPlatform = await composePlatform(config, { applicationName: 'kesher-api-replica' });
      const api = await composeStandaloneApi(replicaPlatform, { clientDistDir, clock: options.clock });
      await api.app.ready();
      replicas.push(async () => {
        await api.close();
        await replicaPlatform.close();
      });
      return api.app;
    },
    async owner(email = `owner${++owners}-${Date.now()}@example.com`, options = {}) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { email, password: 'Str0ng-Passw0rd!' },
      });
      if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
      const body = response.json() as { access_token: string; user: { uid: string } };
      if (options.verified) {
        const link = await waitUntil(() => outboxLink(join(dataDir, 'outbox'), email.toLowerCase(), '/verify-email'), {
          what: `the verification mail to ${email}`,
        });
        const verified = await app.inject({
          method: 'POST',
          url: '/api/v1/auth/verify-email',
          payload: { token: link?.searchParams.get('token') },
        });
        if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.statusCode} ${verified.body}`);
      }
      return { authorization: `Bearer ${body.access_token}`, accountId: body.user.uid, email };
    },
    async close() {
      for (const close of replicas) await close();
      await closeApi();
      await workers.stop();
      await platform.close();
      if (split) await Promise.all([projectorPlatform.close(), workersPlatform.close()]);
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
