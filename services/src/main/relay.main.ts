import { loadConfig } from '../platform/config/config.js';
import { createRelay } from '../workers/relay/relay.js';
import { composePlatform } from './compose-platform.js';

/** The relay process of the production topology: $all → Kafka topics, checkpointed in Postgres. */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-relay' });
const relay = createRelay({ eventStore: platform.sealedEventStore, bus: platform.bus, sql: platform.sql, metrics: platform.metrics, onError: (e) => console.error('relay', e) });
await relay.start();
console.log(`relay running: ${platform.adapters.eventStore} → ${platform.adapters.bus}`);

const shutdown = async () => {
  await relay.stop();
  await platform.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
