import { fileURLToPath } from 'node:url';
import { buildApp } from '../api/app.js';
import type { KnowledgeReads } from '../knowledge/index.js';
import {
  createPublicChatLimits,
  createRunGrants,
  createSqlVisitorAnswers,
  type RunOutputReader,
} from '../chat/index.js';
import { createLimitBuckets } from '../platform/limits/limit-buckets.js';
import { createLimitCounters } from '../platform/limits/limit-counters.js';
import {
  accountOfState,
  accountStreamFor,
  createAccountCommands,
  createAccountRegistration,
  createAuthenticator,
  createEmailOwnership,
  createGoogleSignIn,
  createGoogleVerifier,
  createLinkTokens,
  createLoginThrottle,
  createPasswordHasher,
  createSessionStore,
  createTokenIssuer,
  ensureDemoAccounts,
  loadAuthSecret,
} from '../identity/index.js';
import { accountDecider } from '../domain/account/account.decider.js';
import { aggregateStream } from '../platform/commands/aggregate-stream.js';
import { createMailer } from '../mail/index.js';
import type { BlobStore } from '../platform/blobs/blob-store.port.js';
import { demoAccountsEnabled } from '../platform/config/config.js';
import { allProjections } from '@kesher/projections/registry';
import { readModelWaiter, type ReadModelProgress } from '../platform/projections/read-model-progress.js';
import {
  createMessageQuota,
  createPlanAllowances,
  createPlanBook,
  createStorageHolds,
  createStorageLimit,
  type PlanOf,
} from '../plans/index.js';
import { quotaUsedExpression, usageQueries } from '@kesher/projections/usage/usage.queries';
import type { Platform } from './compose-platform.js';
import { composeAnalytics } from '../analytics/index.js';
import { composeCrawlerApi } from './compose-crawler.js';
import { composeChannelsApi } from './compose-channels.js';
import { composeDriveApi } from './compose-drive.js';
import { billingVersion, composeBilling, subscriptionLookup } from '../billing/index.js';
import { composeAutomationApi } from './compose-automation.js';
import { composeAccountDeletion } from './compose-account-deletion.js';
import { composePrivacyApi, subjectErasureFor } from './compose-privacy-features.js';
import type { SubjectErasure } from '../privacy/index.js';

export interface ApiWiring {
  platform: Platform;
  blobs: BlobStore;
  knowledge: KnowledgeReads;
  /**
   * How far the read models are, and waiting for them: the projector of this process (`runner.progress`)
   * or the checkpoints the projector process stores (`createCheckpointWatcher`). Read-your-writes, the
   * health report, the assistants' cache version and the SSE route all go through it.
   */
  readModels: ReadModelProgress;
  /** How long read-your-writes waits for the read models at most (default 2 s). */
  readYourWritesTimeoutMs?: number;
  /** The runs' output the SSE route streams (run-output/): the workers' own in one process, else this process's reader. */
  runOutput: RunOutputReader;
  clock?: () => Date;
  logger?: boolean;
  /** The built PWA; defaults to client/dist in the repository. */
  clientDistDir?: string;
  /** Which plan an owner is on; by default the plan book (tests give a paid plan to reach the gated features). */
  planOf?: PlanOf;
  /** Erases a data subject (privacy/erasure); the platform's by default (tests give one that records what it is asked). */
  erasure?: SubjectErasure;
}

/** Builds the facade from the platform's ports. Used by `make start` and by the api process alike. */
export async function composeApi(wiring: ApiWiring) {
  const { platform } = wiring;
  const config = platform.config;
  const clock = wiring.clock ?? (() => new Date());
  const awaitReadModels = readModelWaiter({
    readModels: wiring.readModels,
    projections: allProjections,
    timeoutMs: wiring.readYourWritesTimeoutMs ?? 2000,
  });
  const passwords = createPasswordHasher();
  // The limits every API process shares (platform/limits): N replicas never multiply an allowance.
  const onLimitsError = (error: unknown) => platform.log.error({ err: error }, 'limits: purging expired rows failed');
  const limitCounters = createLimitCounters({ sql: platform.sql, onError: onLimitsError });
  const limitBuckets = createLimitBuckets({ sql: platform.sql, onError: onLimitsError });
  const tokens = createTokenIssuer({ secret: loadAuthSecret(config), ttlSeconds: config.TOKEN_TTL_SECONDS });
  const sessions = await createSessionStore({ sql: platform.sql, clock });
  // Sign-outs elsewhere reach this process's live sockets by NOTIFY (authenticator.ts).
  const authenticator = createAuthenticator({
    tokens,
    sessions,
    // A token whose account the read model does not show yet is checked against the account's stream.
    accountFromLog: async (email, accountId) => {
      const account = accountOfState(
        (await aggregateStream(platform.eventStore, accountDecider, accountStreamFor(email))).state,
      );
      return account?.id === accountId ? account : undefined;
    },
    shared: platform.sql,
    onError: (error) => platform.log.error({ err: error }, 'identity: live sockets failed'),
  });
  const stopSessionsListen = await authenticator.listen();
  const sessionsEnded = () => authenticator.sessionsEnded();
  const registration = createAccountRegistration({ handle: platform.handle, awaitReadModels, clock });
  const runAccountCommand = createAccountCommands({ handle: platform.handle, awaitReadModels, clock });
  const demo = demoAccountsEnabled(config);
  // Limits follow the owner's subscription (billing read model) as soon as a payment is recorded.
  const planOf =
    wiring.planOf ??
    createPlanBook(config, {
      subscriptionOf: subscriptionLookup(platform.sql),
      clock,
      version: billingVersion(platform.projector.progress),
    });
  const analytics = composeAnalytics({
    sql: platform.sql,
    handle: platform.handle,
    readModels: wiring.readModels,
    headPosition: () => platform.eventStore.headPosition(),
    awaitReadModels,
    clock,
    planOf,
    storageUsed: (ownerId) => wiring.knowledge.storageUsed(ownerId),
    filesOf: async (ownerId, assistantId) => (await wiring.knowledge.listFiles(ownerId, assistantId)).length,
    storageLimitBytes: config.KNOWLEDGE_STORAGE_LIMIT_BYTES,
    authenticate: (token) => authenticator.authenticate(token),
    trackSocket: (token, socket) => authenticator.trackSocket(token, socket),
    operatorEmails: config.OPERATOR_EMAILS,
    operatorAccountIds: config.OPERATOR_ACCOUNT_IDS,
    development: config.NODE_ENV === 'development',
    settled: (ownerId) => messageQuota.settled(ownerId),
    onError: (error) => platform.log.error({ err: error }, 'analytics failed'),
  });
  const allowances = createPlanAllowances({
    handle: platform.handle,
    eventStore: platform.eventStore,
    planOf,
    limitViolations: analytics.limitViolations,
  });
  const messageQuota = createMessageQuota({
    planOf,
    usage: usageQueries(platform.sql),
    sql: platform.sql,
    awaitReadModels,
    clock,
    // The read models share the holds' database: the count comes in the holds' statement.
    usageExpression: quotaUsedExpression,
  });
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  // The outbox prints each mail's links for `make start`; the test suites' many sign-ups stay quiet.
  const mailer = createMailer(config, config.NODE_ENV === 'test' ? () => {} : undefined);
  const ownership = createEmailOwnership({
    runAccountCommand,
    sessions,
    links: createLinkTokens({ sql: platform.sql }),
    sendMail: mailer.send,
    passwords,
    sessionsEnded,
    clock,
    publicUrl,
    verifyTtlSeconds: config.EMAIL_VERIFY_TTL_SECONDS,
    resetTtlSeconds: config.PASSWORD_RESET_TTL_SECONDS,
    onError: (error, what) => platform.log.error({ err: error }, `identity: ${what} failed`),
  });
  const subscriptions = composeBilling({
    config,
    sql: platform.sql,
    handle: platform.handle,
    eventStore: platform.eventStore,
    planOf,
    awaitReadModels,
    clock,
    publicUrl,
    storageUsed: (ownerId) => wiring.knowledge.storageUsed(ownerId),
    settled: (ownerId) => messageQuota.settled(ownerId),
  });
  const files = {
    handle: platform.handle,
    readDb: platform.sql,
    blobs: wiring.blobs,
    knowledge: wiring.knowledge,
    awaitReadModels,
    clock,
    storageLimitBytes: config.KNOWLEDGE_STORAGE_LIMIT_BYTES,
    storageLimitOf: createStorageLimit({ planOf, config }),
    allowances,
    storage: createStorageHolds({
      handle: platform.handle,
      eventStore: platform.eventStore,
      counts: {
        storageUsed: (ownerId) => wiring.knowledge.storageUsed(ownerId),
        isListed: async (ownerId, fileId) => (await wiring.knowledge.getFile(ownerId, fileId)) !== undefined,
      },
    }),
    limitViolations: analytics.limitViolations,
  };
  const googleDrive = composeDriveApi({ config, sql: platform.sql, planOf, files, publicUrl, clock });
  const crawler = composeCrawlerApi({
    platform,
    blobs: wiring.blobs,
    knowledge: wiring.knowledge,
    readModels: wiring.readModels,
    awaitReadModels,
    allowances,
    planOf,
    authenticator,
    clock,
  });
  const channels = composeChannelsApi({ platform, planOf, awaitReadModels, publicUrl, clock });
  // Before serving: a connection another process ends from now on is dropped from this one's webhook cache.
  const stopIntegrationListen = await channels.listen();
  const automation = composeAutomationApi({ platform, awaitReadModels, clock });
  // "Delete my account" (DELETE /auth/me): every module's part of an account, then its personal data shredded.
  const deleteAccount = composeAccountDeletion({
    platform,
    erasure: wiring.erasure ?? subjectErasureFor(platform, clock),
    runAccountCommand,
    sessions,
    sessionsEnded,
    billing: subscriptions.billing,
    channels: channels.integrations.connections,
    drive: { client: googleDrive.drive, connections: googleDrive.connections },
    allowances,
    awaitReadModels,
    clock,
  });

  const app = await buildApp({
    // The request log names its process like every other line of it (platform/process/process-log.ts).
    logger:
      wiring.logger === true
        ? { level: config.LOG_LEVEL, base: { ...platform.log.bindings(), pid: process.pid } }
        : wiring.logger,
    trustProxy: config.TRUST_PROXY,
    operatorMetrics: { token: config.METRICS_TOKEN, port: config.METRICS_PORT, host: config.METRICS_HOST },
    clientDistDir: wiring.clientDistDir ?? fileURLToPath(new URL('../../../client/dist', import.meta.url)),
    health: {
      adapters: platform.adapters,
      projectionPositions: () => wiring.readModels.positions(),
      headPosition: () => platform.eventStore.headPosition(),
    },
    metricsRegistry: platform.metrics.registry,
    security: {
      rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
      corsOrigins: config.CORS_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean),
      counters: limitCounters,
    },
    authenticator,
    auth: {
      passwords,
      tokens,
      sessions,
      throttle: createLoginThrottle({ sql: platform.sql }),
      authenticator,
      registration,
      ownership,
      google: config.GOOGLE_CLIENT_ID
        ? {
            clientId: config.GOOGLE_CLIENT_ID,
            verify: createGoogleVerifier({ clientId: config.GOOGLE_CLIENT_ID, jwksUrl: config.GOOGLE_JWKS_URL }),
            signIn: createGoogleSignIn({ runAccountCommand, sessions, sessionsEnded }),
          }
        : null,
      demoAccounts: demo,
      deleteAccount,
    },
    assistants: {
      handle: platform.handle,
      readDb: platform.sql,
      awaitReadModels,
      clock,
      assistantsVersion: async () => (await wiring.readModels.positions()).assistants,
      allowances,
      eventStore: platform.eventStore,
    },
    publicUrl,
    files,
    threads: {
      handle: platform.handle,
      eventStore: platform.eventStore,
      readDb: platform.sql,
      awaitReadModels,
      clock,
      runDeadlineSeconds: config.RUN_DEADLINE_SECONDS,
      runOutput: wiring.runOutput,
      messageQuota,
      publicChatLimits: createPublicChatLimits({
        perVisitorPerMinute: config.PUBLIC_CHAT_VISITOR_PER_MINUTE,
        perAddressPerMinute: config.PUBLIC_CHAT_ADDRESS_PER_MINUTE,
        perLinkPerMinute: config.PUBLIC_CHAT_LINK_PER_MINUTE,
        threadsPerAddressPerHour: config.PUBLIC_CHAT_THREADS_PER_ADDRESS_PER_HOUR,
        buckets: limitBuckets,
      }),
      visitorAnswers: createSqlVisitorAnswers(platform.sql),
      limitViolations: analytics.limitViolations,
      // Under the key every API process shares: any replica opens a stream another one granted.
      runGrants: createRunGrants({ secret: loadAuthSecret(config), clock }),
    },
    limits: {
      readDb: platform.sql,
      planOf,
      storageUsed: (ownerId) => wiring.knowledge.storageUsed(ownerId),
      clock,
      messageQuota,
      limitsService: analytics.limitsService,
    },
    analytics: analytics.app,
    crawler: crawler.deps,
    channels,
    googleDrive,
    subscriptions,
    automation: automation.deps,
    curatedAnswers: { handle: platform.handle, readDb: platform.sql, awaitReadModels, clock, planOf },
    privacy: composePrivacyApi({
      sql: platform.sql,
      eventStore: platform.eventStore,
      config,
      clock,
      erasure: wiring.erasure ?? subjectErasureFor(platform, clock),
    }),
  });
  app.addHook('onClose', async () => crawler.close());
  app.addHook('onClose', async () => stopIntegrationListen());
  app.addHook('onClose', async () => stopSessionsListen());
  app.addHook('onClose', async () => automation.close());
  app.addHook('onClose', async () => {
    await ownership.settle();
    await mailer.close();
  });
  if (demo) await ensureDemoAccounts({ registration, sessions, passwords });
  return { app, demoAccounts: demo, publicUrl };
}
