import { loadConfig } from '../platform/config/config.js';
import { closeOnSignal } from '../platform/process/lifecycle.js';
import { composePlatform } from './compose-platform.js';
import { composeWorkers } from './compose-workers.js';

/** The workers process of the production topology: consumers of Kafka topics (scale out by consumer group). */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-workers' });
const workers = await composeWorkers(platform, { relay: false });
// Stopping the consumers waits for the handlers running; their messages are committed or redelivered.
closeOnSignal(
  async () => {
    await workers.stop();
    await platform.close();
  },
  { log: platform.log, deadlineMs: config.SHUTDOWN_TIMEOUT_MS },
);
await workers.start();
platform.log.info(
  { groups: workers.groups },
  `workers running on ${platform.adapters.bus} (consumer groups ${workers.groups.ingest}, ${workers.groups.aiRunner})`,
);
