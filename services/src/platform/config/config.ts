import { z } from 'zod';
import { TrustProxySchema } from './trust-proxy.js';

/** An empty variable counts as unset, exactly like a fresh shell. */
const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);

/**
 * Configuration from the environment. With nothing set, Kesher runs embedded: PGlite under DATA_DIR,
 * the in-process bus, the built-in engines. Each production part is switched on by its own variable.
 */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /**
   * Connections each process may hold to DATABASE_URL (unset: 20). Every replica has its own pool, so the
   * processes of a deployment together must stay under the server's max_connections (100 by default).
   */
  DATABASE_POOL_SIZE: z.preprocess(unsetIfEmpty, z.coerce.number().int().positive().optional()),
  KAFKA_BROKERS: z.string().optional(),
  /**
   * Appended to the workers' consumer groups (`ingest-<suffix>`, `ai-runner-<suffix>`). Groups on a broker
   * are global, so deployments sharing one must not share groups (each would take, and drop, part of the
   * other's messages). Unset, on Kafka, it is the deployment's id kept in its database: every process of
   * one deployment agrees on it, any other deployment differs. Set it to name the groups yourself (tests).
   */
  CONSUMER_GROUP_SUFFIX: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" and "-" only')
      .optional(),
  ),
  EVENTSTORE_URL: z.string().optional(),
  /**
   * `production` turns on production's checks (loadConfig); `development`, set on purpose, serves
   * developer tools to everyone (GraphiQL). Unset — as on `make start`, which strangers may reach — it
   * is neither.
   */
  NODE_ENV: z.string().optional(),
  /** Where visitors reach Kesher; share links are built on it. Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /** HMAC key for session tokens (≥ 32 characters). Required in production; generated and kept under DATA_DIR otherwise. */
  AUTH_SECRET: z.string().min(32).optional(),
  /**
   * Seals third-party secrets at rest (bot and access tokens, action headers): 32 bytes as 64 hex or base64
   * characters. Unset, it is derived from AUTH_SECRET (which every process shares), or without that made
   * and kept under DATA_DIR (embedded). Set it to rotate AUTH_SECRET without losing stored tokens.
   */
  SECRETS_KEY: z.preprocess(unsetIfEmpty, z.string().optional()),
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_JWKS_URL: z.string().url().optional(),
  /**
   * Google Drive import: the OAuth client's secret (with GOOGLE_CLIENT_ID) and Google's endpoints, each
   * replaceable by a stand-in (tests, a demo on `make start`). Without the secret, Drive says it is not set up.
   */
  GOOGLE_CLIENT_SECRET: z.preprocess(unsetIfEmpty, z.string().optional()),
  GOOGLE_AUTHORIZE_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_URL: z.string().url().default('https://oauth2.googleapis.com'),
  GOOGLE_DRIVE_API_URL: z.string().url().default('https://www.googleapis.com'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** Comma-separated browser origins allowed by CORS; empty allows any. */
  CORS_ORIGINS: z.string().default(''),
  /** The three demo accounts: on by default in the embedded mode only; refused in production. */
  DEMO_ACCOUNTS: z.enum(['true', 'false']).optional(),
  /** Knowledge storage per owner in bytes (the free plan's 100 MB by default). */
  KNOWLEDGE_STORAGE_LIMIT_BYTES: z.coerce.number().int().positive().optional(),
  /**
   * The extraction sandbox: worker threads reading uploaded files off the API's event loop. Files read at
   * once, one worker's heap cap, one file's time limit (unset: 2, 512 MB, 60 s, from knowledge/limits.ts).
   */
  EXTRACT_POOL_SIZE: z.coerce.number().int().positive().optional(),
  EXTRACT_MAX_MEMORY_MB: z.coerce.number().int().min(32).optional(),
  EXTRACT_TIME_LIMIT_SECONDS: z.coerce.number().positive().optional(),
  /** An OpenAI-compatible AI service; without a key the built-in grounded engine answers (offline). */
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /**
   * Embeddings (with OPENAI_API_KEY, at OPENAI_BASE_URL): passages get vectors and retrieval is hybrid,
   * full text and vectors fused by rank (docs/knowledge.md). Unset: full text alone. e.g. text-embedding-3-small.
   */
  OPENAI_EMBEDDING_MODEL: z.string().min(1).optional(),
  /** A run nobody finished within this time becomes `expired` (the chat gives up after ~45 s too). */
  RUN_DEADLINE_SECONDS: z.coerce.number().int().positive().default(45),
  /**
   * Answers one ai-runner produces at once. An answer mostly waits (on the model's service, on the
   * database), so this is about how many conversations share a worker, not about its CPU.
   */
  AI_MAX_CONCURRENT_RUNS: z.coerce.number().int().positive().default(32),
  /** How often the ai-runner looks for runs past their deadline. */
  RUN_SWEEP_INTERVAL_MS: z.coerce.number().int().nonnegative().default(5000),
  /**
   * Overrides the free plan's monthly message limit (every account is on the free plan until billing
   * exists): tests and benchmarks set it; production leaves the catalogue's figure.
   */
  PLAN_FREE_MESSAGES_PER_MONTH: z.coerce.number().int().nonnegative().optional(),
  /** Overrides the free plan's max_assistants and max_files (files per assistant), like the monthly messages. */
  PLAN_FREE_MAX_ASSISTANTS: z.coerce.number().int().nonnegative().optional(),
  PLAN_FREE_MAX_FILES: z.coerce.number().int().nonnegative().optional(),
  /** Overrides the free plan's max_crawl_pages (crawled pages an assistant holds; also caps each crawl). */
  PLAN_FREE_MAX_CRAWL_PAGES: z.coerce.number().int().nonnegative().optional(),
  /**
   * Stripe: with a secret key, checkout, the portal and cancelling go through Stripe and its webhooks
   * (signed with STRIPE_WEBHOOK_SECRET) drive subscriptions; without one, the built-in test payment page
   * takes test cards. STRIPE_API_URL points the client elsewhere (tests: a local stand-in of Stripe's API).
   */
  STRIPE_SECRET_KEY: z.preprocess(unsetIfEmpty, z.string().min(1).optional()),
  STRIPE_WEBHOOK_SECRET: z.preprocess(unsetIfEmpty, z.string().min(1).optional()),
  STRIPE_API_URL: z.preprocess(unsetIfEmpty, z.string().url().optional()),
  /** Events per projection transaction; larger is faster to rebuild, smaller keeps transactions short. */
  PROJECTOR_BATCH_SIZE: z.coerce.number().int().positive().default(500),
  /**
   * How long a read model may let an append wait before it reads, so the moment's appends make one batch
   * (projection-runner.ts). Unset: 50 ms where the projector shares the API's process (`make start`),
   * which hurries whatever a request waits for; 0 in the projector process, which nobody there can hurry.
   */
  PROJECTOR_BATCH_DELAY_MS: z.coerce.number().int().min(0).max(5000).optional(),
  /**
   * The same for the relay ($all → bus). Unset: 50 ms in the one-process server (`make start`), where the
   * chat's runs are read from the log and nothing on a turn's way waits for the bus's copy (a moment's
   * appends then go to the bus in one publish, read with the read models' batch); 0 in the relay
   * process, whose bus hands runs to the worker processes.
   */
  RELAY_BATCH_DELAY_MS: z.coerce.number().int().min(0).max(5000).optional(),
  /** Events per batch of `npm run replay` (one transaction each; unset: 20,000, see rebuild-together.ts). */
  REPLAY_BATCH_SIZE: z.coerce.number().int().positive().optional(),
  /** Attempts a bus message gets (a throwing handler, or a process that died handling it) before it is parked as a dead letter. */
  BUS_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
  /** Files the ingest worker reads at once; one owner's files are still read one at a time, so others are not queued behind them. */
  INGEST_CONCURRENCY: z.coerce.number().int().positive().default(3),
  /**
   * The proxies in front of the API whose X-Forwarded-For / X-Forwarded-Proto are believed: empty (the
   * default: nobody's — the client is the socket's address), addresses/CIDRs comma-separated, a hop
   * count, or `true` (anyone's: only where a proxy that overwrites the header is the only way in).
   */
  TRUST_PROXY: TrustProxySchema,
  /** pino's level for every process's log (errors with their stack always reach `error`). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * How long a process's shutdown (SIGTERM/SIGINT) may take to close its server, consumers and connections
   * before it exits 1 anyway (services/src/platform/process/lifecycle.ts); below the orchestrator's kill grace.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Operators read /api/v1/metrics with `Authorization: Bearer <METRICS_TOKEN>`; unset, the route answers 404. */
  METRICS_TOKEN: z.preprocess(unsetIfEmpty, z.string().min(16, 'at least 16 characters').optional()),
  /** A separate operator port serving /metrics (bound to METRICS_HOST, 127.0.0.1 by default). */
  METRICS_PORT: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Public chat: messages one visitor (session token, and separately one address) may post per minute. */
  PUBLIC_CHAT_VISITOR_PER_MINUTE: z.coerce.number().int().positive().default(10),
  PUBLIC_CHAT_ADDRESS_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Public chat: messages all visitors of one share link together may post per minute. */
  PUBLIC_CHAT_LINK_PER_MINUTE: z.coerce.number().int().positive().default(60),
  /** Public chat: conversations one address may start per hour (each is a stored thread; a visitor starts one per visit). */
  PUBLIC_CHAT_THREADS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(20),
  /**
   * Accounts (e-mails, comma-separated) that may read every owner's analytics over GraphQL; none by default.
   * An account counts only once it has verified the address, so registering a listed address first gains nothing.
   */
  OPERATOR_EMAILS: z.string().optional(),
  /** Operators named by account id (comma-separated), whatever their address: for accounts that cannot verify one. */
  OPERATOR_ACCOUNT_IDS: z.preprocess(unsetIfEmpty, z.string().optional()),
  /**
   * Outgoing mail (address verification, password reset) over SMTP: `smtp://user:pass@host:587` or
   * `smtps://…:465`. Unset, mail is kept in DATA_DIR/outbox and its links are printed in the log.
   */
  SMTP_URL: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^smtps?:\/\//, 'an smtp:// or smtps:// address')
      .optional(),
  ),
  /** The sender of Kesher's mail ("Kesher <no-reply@example.com>" or a bare address). */
  MAIL_FROM: z.string().default('Kesher <no-reply@kesher.localhost>'),
  /** How long an address-verification link works (3 days by default), and a password-reset link (1 hour). */
  EMAIL_VERIFY_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(3 * 24 * 3600),
  PASSWORD_RESET_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  /**
   * Hosts, addresses or CIDRs (comma-separated) that fetches made for users — the crawler, Add Missing
   * Page — may reach although they are loopback or private. Empty by default and in production: only the
   * tests' local sites need it (`127.0.0.1`). Read by the outbound module (outbound-allowlist.ts) where a
   * guarded fetch is composed, so a typo still stops the process at start; platform does not import modules.
   */
  OUTBOUND_ALLOWLIST: z.string().optional(),
  /** Crawls one workers process runs at once (each fetches 8 pages at a time, politely per host). */
  CRAWL_CONCURRENCY: z.coerce.number().int().positive().default(4),
  /**
   * The channels' APIs (docs/channels.md): the real services by default; tests and `make start` with
   * stand-ins point them elsewhere. WhatsApp and Instagram are Graph API bases with their version.
   */
  TELEGRAM_API_URL: z.string().url().default('https://api.telegram.org'),
  WHATSAPP_API_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  INSTAGRAM_API_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  /** The Meta app's secret that signs WhatsApp and Instagram webhooks (owners may give their own app's instead). */
  META_APP_SECRET: z.preprocess(unsetIfEmpty, z.string().min(1).optional()),
  /** Messages one customer chat gets answered per minute; more are recorded but not answered (flood guard). */
  CHANNEL_CHAT_PER_MINUTE: z.coerce.number().int().positive().default(20),
  /** Webhook deliveries one channel connection may make per minute before 429. */
  CHANNEL_WEBHOOK_PER_MINUTE: z.coerce.number().int().positive().default(6000),
  /** How often the scheduler looks for crawler configurations whose recrawl is due (0: never by itself). */
  RECRAWL_CHECK_INTERVAL_MS: z.coerce.number().int().nonnegative().default(60_000),
  // Retention (spec part 2 "Privacy"; services/src/privacy/retention, docs/privacy.md). Each period is the
  // spec's default; the run is the scheduler's, every RETENTION_CHECK_INTERVAL_MS (0: only when asked).
  /** A conversation (owner's, visitor's, channel customer's) is erased this long after its last message. */
  RETENTION_CONVERSATION_DAYS: z.coerce.number().int().positive().default(90),
  /** Analytics detail older than this is aggregated and its personal parts (who asked what) shredded. */
  RETENTION_ANALYTICS_MONTHS: z.coerce.number().int().positive().default(24),
  /** The owner's security log entries. */
  RETENTION_SECURITY_LOG_MONTHS: z.coerce.number().int().positive().default(12),
  /** Payment records: kept this long even when the account is erased (tax law). */
  RETENTION_PAYMENT_YEARS: z.coerce.number().int().positive().default(7),
  /** An account with no conversation and no change to its assistants or files this long is warned by mail, then erased. */
  RETENTION_INACTIVE_ACCOUNT_MONTHS: z.coerce.number().int().positive().default(24),
  /** Between the inactivity warning and the erasure. */
  RETENTION_INACTIVE_NOTICE_DAYS: z.coerce.number().int().positive().default(30),
  RETENTION_CHECK_INTERVAL_MS: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(6 * 3600 * 1000),
});
export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid configuration:\n${z.prettifyError(parsed.error)}`);
  const config = parsed.data;
  if (config.NODE_ENV === 'production') {
    if (!config.AUTH_SECRET)
      throw new Error('invalid configuration: AUTH_SECRET (at least 32 characters) is required in production');
    if (config.DEMO_ACCOUNTS === 'true')
      throw new Error('invalid configuration: demo accounts are refused in production (unset DEMO_ACCOUNTS)');
  }
  return config;
}

/** Embedded = nothing external configured: PGlite and the in-process bus. */
export const isEmbedded = (config: Config) => !config.DATABASE_URL && !config.EVENTSTORE_URL && !config.KAFKA_BROKERS;

export const demoAccountsEnabled = (config: Config) =>
  config.NODE_ENV !== 'production' &&
  (config.DEMO_ACCOUNTS === 'true' || (config.DEMO_ACCOUNTS === undefined && isEmbedded(config)));
