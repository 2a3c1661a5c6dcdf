import { loadConfig } from '../platform/config/config.js';
import { closeOnSignal } from '../platform/process/lifecycle.js';
import { composePlatform } from './compose-platform.js';
import { composeStandaloneApi } from './compose-standalone-api.js';

/** The API process of the production topology (projector, relay and workers run as their own processes). */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-api' });
const api = await composeStandaloneApi(platform, { logger: true });
// Fastify's close stops taking connections and waits for the requests in flight; then the platform.
closeOnSignal(
  async () => {
    await api.close();
    await platform.close();
  },
  { log: platform.log, deadlineMs: config.SHUTDOWN_TIMEOUT_MS },
);
await api.app.listen({ port: config.PORT, host: config.HOST });
