import { loadConfig } from '../platform/config/config.js';
import { readAllCheckpoints, readCheckpoint } from '../platform/projections/checkpoints.js';
import { waitForCheckpoints } from '../platform/projections/projection-runner.js';
import { allProjections } from '@kesher/projections/registry';
import { createSqlBlobStore } from '../platform/blobs/sql.blob-store.js';
import { composeApi } from './compose-api.js';
import { composePlatform } from './compose-platform.js';
import { createKnowledgeService } from '../knowledge/knowledge-service.js';

/** The API process of the production topology (projector, relay and workers run as their own processes). */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-api' });
const blobs = await createSqlBlobStore({ sql: platform.sql });
const knowledge = createKnowledgeService({ readDb: platform.sql, blobs });
const { app } = await composeApi({
  platform,
  blobs,
  knowledge: knowledge.reads,
  // The projector is another process: wait on the checkpoints it stores.
  awaitReadModels: (position) => waitForCheckpoints(platform.sql, allProjections.map((p) => p.name), position),
  projectionPositions: () => readAllCheckpoints(platform.sql),
  projectionPosition: async (name) => (await readCheckpoint(platform.sql, name))?.position,
  logger: true,
});
await app.listen({ port: config.PORT, host: config.HOST });

const shutdown = async () => {
  await app.close();
  await platform.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
