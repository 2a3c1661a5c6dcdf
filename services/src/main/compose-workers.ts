import type { KnowledgeReads } from '../api/routes/files/files.routes.js';
import type { BlobStore } from '../platform/blobs/blob-store.port.js';
import { createSqlBlobStore } from '../platform/blobs/sql.blob-store.js';
import { createIngestWorker } from '../workers/ingest/ingest.worker.js';
import { createRelay } from '../workers/relay/relay.js';
import type { Platform } from './compose-platform.js';
import { createKnowledgeService } from '../knowledge/knowledge-service.js';

/**
 * The relay ($all → bus) and the workers fed by the bus. In the embedded default they run inside the
 * `make start` process; in production each runs as its own process (relay.main, workers.main).
 */
export async function composeWorkers(platform: Platform, options: { consumerGroupSuffix?: string; relay?: boolean } = {}) {
  const blobs: BlobStore = await createSqlBlobStore({ sql: platform.sql });
  const knowledge = createKnowledgeService({ readDb: platform.sql, blobs });
  const suffix = options.consumerGroupSuffix ? `-${options.consumerGroupSuffix}` : '';
  const relay =
    options.relay === false
      ? undefined
      : createRelay({ eventStore: platform.eventStore, bus: platform.bus, sql: platform.sql, metrics: platform.metrics, onError: (e) => console.error('relay', e) });
  const ingest = createIngestWorker({
    bus: platform.bus,
    eventStore: platform.eventStore,
    handle: platform.handle,
    ingest: knowledge.ingest,
    groupId: `ingest${suffix}`,
  });
  return {
    blobs,
    knowledgeReads: knowledge.reads satisfies KnowledgeReads,
    knowledge,
    relay,
    async start() {
      await relay?.start();
      await ingest.start();
    },
    async stop() {
      await ingest.stop();
      await relay?.stop();
    },
  };
}
