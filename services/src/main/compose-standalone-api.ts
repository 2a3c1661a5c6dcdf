import { createSqlRunOutput } from '../chat/index.js';
import { createKnowledgeService } from '../knowledge/index.js';
import { withCrawlRecords } from '../crawler/index.js';
import { crawlerQueries } from '@kesher/projections/crawler/crawler.queries';
import { createSqlBlobStore } from '../platform/blobs/sql.blob-store.js';
import { createCheckpointWatcher } from '../platform/projections/read-model-progress.js';
import { composeApi } from './compose-api.js';
import type { Platform } from './compose-platform.js';

/**
 * The API of the production topology: the projector and the workers are other processes. Read-your-writes
 * waits on the checkpoints the projector stores (one shared watcher per process), and the SSE route reads
 * the answers the workers write to the run_output table (woken by NOTIFY).
 */
export async function composeStandaloneApi(
  platform: Platform,
  options: { logger?: boolean; clientDistDir?: string; clock?: () => Date } = {},
) {
  const blobs = await createSqlBlobStore({ sql: platform.sql });
  const knowledge = createKnowledgeService({ readDb: platform.sql, blobs });
  const readModels = createCheckpointWatcher({ sql: platform.sql });
  // Streams read the runs' output from the table the workers write; any API process serves any run.
  const runOutput = createSqlRunOutput({
    sql: platform.sql,
    clock: options.clock,
    onError: (error) => platform.log.error({ err: error }, 'run output failed'),
  });
  const { app } = await composeApi({
    platform,
    blobs,
    // Storage counts the files and what the owner's crawls recorded (crawler/crawl-storage.ts).
    knowledge: withCrawlRecords(knowledge.reads, crawlerQueries(platform.sql).storedBytes),
    runOutput,
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
      await runOutput.close();
    },
  };
}
