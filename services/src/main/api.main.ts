import { loadConfig } from '../platform/config/config.js';
import { composePlatform } from './compose-platform.js';
import { composeStandaloneApi } from './compose-standalone-api.js';

/** The API process of the production topology (projector, relay and workers run as their own processes). */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-api' });
const api = await composeStandaloneApi(platform, { logger: true });
await api.app.listen({ port: config.PORT, host: config.HOST });

const shutdown = async () => {
  await api.close();
  await platform.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
