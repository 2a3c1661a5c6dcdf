import { createKnowledgeService, createOpenAiEmbedder, type KnowledgeReads } from '../knowledge/index.js';
import type { BlobStore } from '../platform/blobs/blob-store.port.js';
import { createSqlBlobStore } from '../platform/blobs/sql.blob-store.js';
import { deploymentId } from '../platform/bus/deployment-id.js';
import { createIngestWorker } from '../workers/ingest/ingest.worker.js';
import { createKnowledgeBlobCleanupWorker } from '../workers/knowledge-blob-cleanup/knowledge-blob-cleanup.worker.js';
import { createRelay } from '../workers/relay/relay.js';
import type { Platform } from './compose-platform.js';
import { threadQueries } from '@kesher/projections/threads/threads.queries';
import { createAiRunner } from '../workers/ai-runner/ai-runner.worker.js';
import { runRequestsFromBus, runRequestsFromLog } from '../workers/ai-runner/run-requests.js';
import { composeRunAutomation } from './compose-automation.js';
import { type AnswerProvider, chooseAnswerProvider, createAssistantStates, createSqlRunOutput } from '../chat/index.js';
import { createAssistantErasure } from '../assistants/index.js';
import { createPlanAllowances, type PlanOf } from '../plans/index.js';
import { livePlanBook } from '../billing/index.js';
import { createAssistantErasureWorker } from '../workers/assistant-erasure/assistant-erasure.worker.js';
import { composeCrawlerWorkers } from './compose-crawler.js';
import { withCrawlRecords } from '../crawler/index.js';
import { crawlerQueries } from '@kesher/projections/crawler/crawler.queries';
import { composeChannelsWorker } from './compose-channels.js';
import { composePrivacyWorkers, subjectErasureFor } from './compose-privacy-features.js';
import type { SubjectErasure } from '../privacy/index.js';
import { createMailer } from '../mail/index.js';

/**
 * The relay ($all → bus) and the workers fed by the bus. In the embedded default they run inside the
 * `make start` process; in production each runs as its own process (relay.main, workers.main).
 */
export async function composeWorkers(
  platform: Platform,
  options: {
    /** Overrides CONSUMER_GROUP_SUFFIX and the deployment's id (see `consumerGroupSuffix` below). */
    consumerGroupSuffix?: string;
    relay?: boolean;
    /** The relay's batching delay when RELAY_BATCH_DELAY_MS is unset (default 0: at once). */
    relayBatchDelayMs?: number;
    answerProvider?: AnswerProvider;
    /** false: no recrawl timer in this process (tests drive `crawler.scheduler.tick()`). */
    recrawlScheduler?: boolean;
    /** The plan the channels worker answers by; the billing read model's (livePlanBook) unless a test gives its own. */
    channelsPlanOf?: PlanOf;
    /** The AI runner's clock (deadlines, the sweep); tests that fix the API's clock give the runner the same one. */
    clock?: () => Date;
    /**
     * Erases a data subject for the retention run (every RETENTION_CHECK_INTERVAL_MS) and a channel customer's
     * /forget: the platform's (privacy/erasure) unless a test gives one that records what it is asked.
     */
    erasure?: SubjectErasure;
    /** false: no retention timer in this process (tests call `privacy.retention.tick()`). */
    retentionScheduler?: boolean;
  } = {},
) {
  const blobs: BlobStore = await createSqlBlobStore({ sql: platform.sql });
  const knowledge = createKnowledgeService({
    readDb: platform.sql,
    blobs,
    // Uploaded files are read in worker threads with these caps, never on this process's event loop.
    extraction: {
      poolSize: platform.config.EXTRACT_POOL_SIZE,
      maxMemoryMb: platform.config.EXTRACT_MAX_MEMORY_MB,
      timeLimitMs: platform.config.EXTRACT_TIME_LIMIT_SECONDS && platform.config.EXTRACT_TIME_LIMIT_SECONDS * 1000,
      onWorkerLost: (cause, file, detail) =>
        platform.log.error(
          { cause, fileKind: file.kind, detail },
          `extraction worker replaced (${cause}) reading a ${file.kind} file${detail ? `: ${detail}` : ''}`,
        ),
    },
    // With an embeddings model (and a key), passages get vectors and retrieval is hybrid; otherwise full text alone.
    ...(platform.config.OPENAI_API_KEY && platform.config.OPENAI_EMBEDDING_MODEL
      ? {
          embeddings: {
            embedder: createOpenAiEmbedder({
              apiKey: platform.config.OPENAI_API_KEY,
              baseURL: platform.config.OPENAI_BASE_URL,
              model: platform.config.OPENAI_EMBEDDING_MODEL,
            }),
            onError: (error: unknown) => platform.log.error({ err: error }, 'embeddings failed'),
          },
        }
      : {}),
  });
  // Storage counts the files and what the owner's crawls recorded (crawler/crawl-storage.ts).
  const knowledgeReads = withCrawlRecords(knowledge.reads, crawlerQueries(platform.sql).storedBytes);
  const groupSuffix = options.consumerGroupSuffix ?? (await consumerGroupSuffix(platform));
  const suffix = groupSuffix ? `-${groupSuffix}` : '';
  const relay =
    options.relay === false
      ? undefined
      : createRelay({
          eventStore: platform.sealedEventStore,
          bus: platform.bus,
          sql: platform.sql,
          metrics: platform.metrics,
          batchDelayMs: platform.config.RELAY_BATCH_DELAY_MS ?? options.relayBatchDelayMs ?? 0,
          onError: (error) => platform.log.error({ err: error }, 'relay failed; retrying'),
        });
  const groups = {
    ingest: `ingest${suffix}`,
    aiRunner: `ai-runner${suffix}`,
    assistantErasure: `assistant-erasure${suffix}`,
    knowledgeBlobCleanup: `knowledge-blob-cleanup${suffix}`,
    crawler: `crawler${suffix}`,
  };
  const ingest = createIngestWorker({
    bus: platform.bus,
    eventStore: platform.eventStore,
    handle: platform.handle,
    ingest: knowledge.ingest,
    blobs,
    groupId: groups.ingest,
    concurrency: platform.config.INGEST_CONCURRENCY,
  });
  // A deleted or unreadable file's bytes, text and passages are freed through the blob store.
  const knowledgeBlobCleanup = createKnowledgeBlobCleanupWorker({
    bus: platform.bus,
    blobs,
    groupId: groups.knowledgeBlobCleanup,
  });
  // The runs' output, in the database every API process streams it from (the API of this process too).
  const runOutput = createSqlRunOutput({
    sql: platform.sql,
    clock: options.clock,
    onError: (error) => platform.log.error({ err: error }, 'run output failed'),
  });
  const assistantStates = createAssistantStates(platform.eventStore);
  // Crawls and scheduled recrawls; their pages become knowledge files read by the ingest worker above.
  const crawler = composeCrawlerWorkers({
    platform,
    blobs,
    knowledge: knowledgeReads,
    allowances: createPlanAllowances({
      handle: platform.handle,
      eventStore: platform.eventStore,
      planOf: livePlanBook(platform),
    }),
    groupId: groups.crawler,
    scheduler: options.recrawlScheduler,
  });
  // Owners' workflows, guidelines and actions shape every run (services/src/automation).
  const runAutomation = composeRunAutomation(platform);
  const aiRunner = createAiRunner({
    bus: platform.bus,
    eventStore: platform.eventStore,
    handle: platform.handle,
    provider: options.answerProvider ?? chooseAnswerProvider(platform.config),
    // From the assistant's stream (the write side, as the chat's API reads it), not the read model: the
    // worker asks for it beside the thread's, and both come in one statement (sql-event-store.ts).
    findAssistant: async (assistantId) => {
      const state = await assistantStates(assistantId);
      if (!state) return undefined;
      const { name, instructions, payment_processing } = state.profile;
      const salesMode = { enabled: payment_processing.enabled, salesPrompt: payment_processing.sales_prompt };
      // Sales Mode refers buyers to the sales pages the crawler found on the assistant's site.
      return {
        name,
        instructions,
        salesMode,
        ...(salesMode.enabled ? { salesPages: await crawler.salesPages(assistantId) } : {}),
      };
    },
    retrieve: knowledge.retrieve,
    // Where this process relays the log to its own database's bus, the runner reads its requests from the
    // log: the bus's copy was one more write and hand-off before every answer (docs/chat.md). Worker
    // processes of their own, and Kafka, share the requests in the bus's consumer group.
    requests:
      relay && platform.bus.name === 'in-process'
        ? runRequestsFromLog({
            eventStore: platform.eventStore,
            sql: platform.sql,
            name: 'ai-runner-requests',
            onError: (error) => platform.log.error({ err: error }, 'ai-runner: reading the log failed; retrying'),
          })
        : runRequestsFromBus(platform.bus, groups.aiRunner),
    overdueRuns: (now) => threadQueries(platform.sql).overdueRuns(now),
    output: runOutput,
    sweepIntervalMs: platform.config.RUN_SWEEP_INTERVAL_MS,
    maxConcurrentRuns: platform.config.AI_MAX_CONCURRENT_RUNS,
    automation: runAutomation.automation,
    clock: options.clock,
    onError: (error) => platform.log.error({ err: error }, 'ai-runner failed'),
  });
  // Retention and a channel customer's /forget, both erasing through the privacy module's subject erasure.
  const mailer = createMailer(platform.config, platform.config.NODE_ENV === 'test' ? () => {} : undefined);
  const privacy = composePrivacyWorkers({
    sql: platform.sql,
    config: platform.config,
    erasure: options.erasure ?? subjectErasureFor(platform, options.clock),
    sendMail: mailer.send,
    publicUrl: (platform.config.PUBLIC_URL ?? `http://localhost:${platform.config.PORT}`).replace(/\/$/, ''),
    clock: options.clock,
    scheduler: options.retentionScheduler,
    onError: (error) => platform.log.error({ err: error }, 'retention failed'),
  });
  // Customers' Telegram, WhatsApp and Instagram messages in, the answers out through the same channel.
  const channels = composeChannelsWorker({
    platform,
    groupIds: { inbound: `channels-inbound${suffix}`, outbound: `channels-outbound${suffix}` },
    planOf: options.channelsPlanOf,
    forget: privacy.forget,
  });
  // Finishes a deleted assistant's erasure if the API died before it did (idempotent otherwise).
  const threads = threadQueries(platform.sql);
  const assistantErasure = createAssistantErasureWorker({
    bus: platform.bus,
    eventStore: platform.eventStore,
    erase: createAssistantErasure({
      handle: platform.handle,
      eventStore: platform.eventStore,
      awaitReadModels: async () => true,
      filesOf: async (ownerId, assistantId) =>
        (await knowledge.reads.listFiles(ownerId, assistantId)).map((file) => file.id),
      threadsOf: async (ownerId, assistantId) =>
        (await threads.threadsOfAssistant(ownerId, assistantId)).map((thread) => thread.id),
    }),
    allowances: createPlanAllowances({
      handle: platform.handle,
      eventStore: platform.eventStore,
      planOf: livePlanBook(platform),
    }),
    groupId: groups.assistantErasure,
  });
  return {
    blobs,
    /** The consumer groups the workers read in. */
    groups,
    runOutput,
    aiRunner,
    knowledgeReads: knowledgeReads satisfies KnowledgeReads,
    knowledge,
    relay,
    crawler,
    channels,
    privacy,
    async start() {
      await relay?.start();
      await ingest.start();
      await knowledgeBlobCleanup.start();
      knowledge.embeddingIndexer?.start();
      await aiRunner.start();
      await channels.start();
      await assistantErasure.start();
      await crawler.start();
      privacy.retention.start();
    },
    async stop() {
      await privacy.retention.stop();
      await mailer.close();
      await crawler.stop();
      await assistantErasure.stop();
      await channels.stop();
      await aiRunner.stop();
      runAutomation.close();
      await ingest.stop();
      await knowledgeBlobCleanup.stop();
      await knowledge.embeddingIndexer?.stop();
      await knowledge.close();
      await relay?.stop();
      await runOutput.close();
    },
  };
}

/**
 * Consumer groups on Kafka are global to the broker, and so are the topics; the database is this
 * deployment's own. Workers of two deployments in one group would each be handed part of the other's
 * messages and drop them as unknown (the bench's split run left every upload pending so). On Kafka the
 * groups are therefore this deployment's (CONSUMER_GROUP_SUFFIX, else the id kept in its database). The
 * in-process bus keeps its groups in the deployment's own database, so its names stay as they were.
 */
async function consumerGroupSuffix(platform: Platform): Promise<string | undefined> {
  if (platform.config.CONSUMER_GROUP_SUFFIX) return platform.config.CONSUMER_GROUP_SUFFIX;
  return platform.bus.name === 'kafka' ? deploymentId(platform.sql) : undefined;
}
