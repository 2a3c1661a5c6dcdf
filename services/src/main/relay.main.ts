import { loadConfig } from '../platform/config/config.js';
import { closeOnSignal } from '../platform/process/lifecycle.js';
import { createRelay } from '../workers/relay/relay.js';
import { composePlatform } from './compose-platform.js';

/** The relay process of the production topology: $all → Kafka topics, checkpointed in Postgres. */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-relay' });
const relay = createRelay({
  eventStore: platform.sealedEventStore,
  bus: platform.bus,
  sql: platform.sql,
  metrics: platform.metrics,
  batchDelayMs: config.RELAY_BATCH_DELAY_MS ?? 0,
  onError: (error) => platform.log.error({ err: error }, 'relay failed; retrying'),
});
closeOnSignal(
  async () => {
    await relay.stop();
    await platform.close();
  },
  { log: platform.log, deadlineMs: config.SHUTDOWN_TIMEOUT_MS },
);
await relay.start();
platform.log.info(
  { eventStore: platform.adapters.eventStore, bus: platform.adapters.bus },
  `relay running: ${platform.adapters.eventStore} → ${platform.adapters.bus}`,
);
