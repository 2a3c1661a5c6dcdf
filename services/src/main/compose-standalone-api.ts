import { chooseRunStreams } from '../chat/choose-run-streams.js';
import { createKnowledgeService } from '../knowledge/knowledge-service.js';
import { withCrawlRecords } from '../crawler/crawl-storage.js';
import { crawlerQueries } from '@kesher/projections/crawler/crawler.queries';
import { createSqlBlobStore } from '../platform/blobs/sql.blob-store.js';
import { createCheckpointWatcher } from '../platform/projections/read-model-progress.js';
import { composeApi } from './compose-api.js';
import type { Platform } from './compose-platform.js';

/**
 * The API of the production topology: the projector and the workers are other processes. Read-your-writes
 * and the SSE route wait on the checkpoints the projector stores (one shared watcher per process), and live
 * answers arrive from the workers through LISTEN/NOTIFY.
 */
export async function composeStandaloneApi(platform: Platform, options: { logger?: boolean; clientDistDir?: string; clock?: () => Date } = {}) {
  const blobs = await createSqlBlobStore({ sql: platform.sql });
  const knowledge = createKnowledgeService({ readDb: platform.sql, blobs });
  const readModels = createCheckpointWatcher({ sql: platform.sql });
  const runStreams = chooseRunStreams(platform.sql, 'split', (error) => console.error('live answers', error));
  // Listen before serving: a stream opened meanwhile would miss the start of its run.
  await runStreams.listen?.();
  const { app } = await composeApi({
    platform,
    blobs,
    // Storage counts the files and what the owner's crawls recorded (crawler/crawl-storage.ts).
    knowledge: withCrawlRecords(knowledge.reads, crawlerQueries(platform.sql).storedBytes),
    runStreams,
    readModels,
    logger: options.logger,
    clientDistDir: options.clientDistDir,
    clock: options.clock,
  });
  return {
    app,
    async close() {
      await app.close();
      readModels.close();
      await runStreams.close?.();
    },
  };
}
