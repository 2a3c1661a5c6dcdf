import { loadConfig } from '../platform/config/config.js';
import { composePlatform } from './compose-platform.js';
import { composeWorkers } from './compose-workers.js';

/** The workers process of the production topology: consumers of Kafka topics (scale out by consumer group). */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-workers' });
const workers = await composeWorkers(platform, { relay: false });
await workers.start();
console.log(`workers running on ${platform.adapters.bus} (consumer groups ${workers.groups.ingest}, ${workers.groups.aiRunner})`);

const shutdown = async () => {
  await workers.stop();
  await platform.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
