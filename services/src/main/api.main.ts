import { buildApp } from '../api/app.js';
import { readAllCheckpoints } from '../platform/projections/checkpoints.js';
import { loadConfig } from '../platform/config/config.js';
import { composePlatform } from './compose-platform.js';

/** The API process of the production topology (projector and relay run as their own processes). */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-api' });
const app = await buildApp({
  adapters: platform.adapters,
  projectionPositions: () => readAllCheckpoints(platform.sql),
  headPosition: () => platform.eventStore.headPosition(),
  metricsRegistry: platform.metrics.registry,
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
