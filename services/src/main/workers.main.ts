import { chooseRunStreams } from '../chat/choose-run-streams.js';
import { loadConfig } from '../platform/config/config.js';
import { composePlatform } from './compose-platform.js';
import { composeWorkers } from './compose-workers.js';

/** The workers process of the production topology: consumers of Kafka topics (scale out by consumer group). */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-workers' });
// Live answers go to the API processes through the database they share.
const runStreams = chooseRunStreams(platform.sql, 'split', (error) => console.error('live answers', error));
const workers = await composeWorkers(platform, { relay: false, runStreams });
await workers.start();
console.log(`workers running on ${platform.adapters.bus} (consumer groups ${workers.groups.ingest}, ${workers.groups.aiRunner})`);

const shutdown = async () => {
  await workers.stop();
  await platform.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
