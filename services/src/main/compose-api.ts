import { fileURLToPath } from 'node:url';
import type { AllPosition } from '@kesher/contracts';
import { buildApp } from '../api/app.js';
import { createPublicChatLimits } from '../api/routes/threads/public-chat-limits.js';
import type { KnowledgeReads } from '../api/routes/files/files.routes.js';
import { createAuthenticator } from '../identity/authenticator.js';
import { createAccountRegistration } from '../identity/account-registration.js';
import { loadAuthSecret } from '../identity/auth-secret.js';
import { ensureDemoAccounts } from '../identity/demo-accounts.js';
import { createGoogleVerifier } from '../identity/google-verifier.js';
import { createLoginThrottle } from '../identity/login-throttle.js';
import { createPasswordHasher } from '../identity/password-hasher.js';
import { createSessionStore } from '../identity/session.store.js';
import { createTokenIssuer } from '../identity/token-issuer.js';
import type { BlobStore } from '../platform/blobs/blob-store.port.js';
import { demoAccountsEnabled } from '../platform/config/config.js';
import type { RunStreamHub } from '../chat/run-stream-hub.js';
import type { AwaitReadModels, ReadModelProgress } from '../platform/projections/read-model-progress.js';
import { createMessageQuota } from '../plans/message-quota.js';
import { createWriteMarks } from '../platform/projections/write-marks.js';
import { createPlanBook } from '../plans/plan-book.js';
import { createPlanAllowances } from '../plans/plan-allowances.js';
import { usageQueries } from '@kesher/projections/usage/usage.queries';
import type { Platform } from './compose-platform.js';

export interface ApiWiring {
  platform: Platform;
  blobs: BlobStore;
  knowledge: KnowledgeReads;
  /** Read-your-writes: resolves once the read models have applied `position` (bounded wait). */
  awaitReadModels: AwaitReadModels;
  projectionPositions: () => Record<string, AllPosition> | Promise<Record<string, AllPosition>>;
  /** Current checkpoint of one read model (in-process runner, or the stored checkpoint). */
  projectionPosition: (name: string) => AllPosition | undefined | Promise<AllPosition | undefined>;
  /** Live answers: the in-process hub of the ai-runner in this process, or LISTEN/NOTIFY from the workers process. */
  runStreams?: RunStreamHub;
  /** Progress of the read models, so waiting routes (SSE) are woken rather than polling. */
  readModels?: ReadModelProgress;
  clock?: () => Date;
  logger?: boolean;
  /** The built PWA; defaults to client/dist in the repository. */
  clientDistDir?: string;
}

/** Builds the facade from the platform's ports. Used by `make start` and by the api process alike. */
export async function composeApi(wiring: ApiWiring) {
  const { platform } = wiring;
  const config = platform.config;
  const clock = wiring.clock ?? (() => new Date());
  const passwords = createPasswordHasher();
  const tokens = createTokenIssuer({ secret: loadAuthSecret(config), ttlSeconds: config.TOKEN_TTL_SECONDS });
  const sessions = await createSessionStore({ sql: platform.sql });
  const authenticator = createAuthenticator({ tokens, sessions });
  const registration = createAccountRegistration({ handle: platform.handle, awaitReadModels: wiring.awaitReadModels, clock });
  const demo = demoAccountsEnabled(config);
  const planOf = createPlanBook(config);
  const allowances = createPlanAllowances({ handle: platform.handle, eventStore: platform.eventStore, planOf });
  const messageQuota = createMessageQuota({ planOf, usage: usageQueries(platform.sql), clock, accepted: createWriteMarks({ awaitReadModels: wiring.awaitReadModels }) });
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');

  const app = await buildApp({
    logger: wiring.logger === true ? { level: config.LOG_LEVEL } : wiring.logger,
    trustProxy: config.TRUST_PROXY,
    operatorMetrics: { token: config.METRICS_TOKEN, port: config.METRICS_PORT, host: config.METRICS_HOST },
    clientDistDir: wiring.clientDistDir ?? fileURLToPath(new URL('../../../client/dist', import.meta.url)),
    health: { adapters: platform.adapters, projectionPositions: wiring.projectionPositions, headPosition: () => platform.eventStore.headPosition() },
    metricsRegistry: platform.metrics.registry,
    security: {
      rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
      corsOrigins: config.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    },
    authenticator,
    auth: {
      passwords,
      tokens,
      sessions,
      throttle: createLoginThrottle(),
      authenticator,
      registration,
      google: config.GOOGLE_CLIENT_ID ? { clientId: config.GOOGLE_CLIENT_ID, verify: createGoogleVerifier({ clientId: config.GOOGLE_CLIENT_ID, jwksUrl: config.GOOGLE_JWKS_URL }) } : null,
      demoAccounts: demo,
    },
    assistants: {
      handle: platform.handle,
      readDb: platform.sql,
      awaitReadModels: wiring.awaitReadModels,
      clock,
      assistantsVersion: () => wiring.projectionPosition('assistants'),
      allowances,
      eventStore: platform.eventStore,
    },
    publicUrl,
    files: {
      handle: platform.handle,
      readDb: platform.sql,
      blobs: wiring.blobs,
      knowledge: wiring.knowledge,
      awaitReadModels: wiring.awaitReadModels,
      clock,
      storageLimitBytes: config.KNOWLEDGE_STORAGE_LIMIT_BYTES,
      allowances,
    },
    threads: {
      handle: platform.handle,
      readDb: platform.sql,
      awaitReadModels: wiring.awaitReadModels,
      clock,
      runDeadlineSeconds: config.RUN_DEADLINE_SECONDS,
      runStreams: wiring.runStreams,
      readModels: wiring.readModels,
      messageQuota,
      publicChatLimits: createPublicChatLimits({
        perVisitorPerMinute: config.PUBLIC_CHAT_VISITOR_PER_MINUTE,
        perAddressPerMinute: config.PUBLIC_CHAT_ADDRESS_PER_MINUTE,
        perLinkPerMinute: config.PUBLIC_CHAT_LINK_PER_MINUTE,
      }),
    },
    limits: { readDb: platform.sql, planOf, storageUsed: (ownerId) => wiring.knowledge.storageUsed(ownerId), clock, messageQuota },
  });
  if (demo) await ensureDemoAccounts({ registration, sessions, passwords });
  return { app, demoAccounts: demo, publicUrl };
}
