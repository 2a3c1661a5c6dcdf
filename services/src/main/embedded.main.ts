import { buildApp } from '../api/app.js';
import { loadConfig } from '../platform/config/config.js';
import { createRelay } from '../workers/relay/relay.js';
import { composePlatform } from './compose-platform.js';

/**
 * `make start`: the whole of Kesher in one process — API, projector and relay — on whatever the
 * configuration selects (by default PGlite under ./data and the in-process bus; no services needed).
 */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher' });
await platform.projector.start();
const relay = createRelay({ eventStore: platform.eventStore, bus: platform.bus, sql: platform.sql, metrics: platform.metrics, onError: (e) => console.error('relay', e) });
await relay.start();

const app = await buildApp({
  adapters: platform.adapters,
  projectionPositions: () => platform.projector.positions(),
  headPosition: () => platform.eventStore.headPosition(),
  metricsRegistry: platform.metrics.registry,
});
const address = await app.listen({ port: config.PORT, host: config.HOST });
console.log(`Kesher is running at ${address.replace('127.0.0.1', 'localhost')}  (event store: ${platform.adapters.eventStore}, bus: ${platform.adapters.bus}, data: ${config.DATABASE_URL ? 'Postgres' : config.DATA_DIR})`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: shutting down`);
  await app.close();
  await relay.stop();
  await platform.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
