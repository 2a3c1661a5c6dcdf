import Fastify from 'fastify';
import { loadConfig } from '../platform/config/config.js';
import { closeOnSignal } from '../platform/process/lifecycle.js';
import { composePlatform } from './compose-platform.js';

/** The projector process of the production topology: builds every read model; exposes /metrics. */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-projector' });
const metricsServer = Fastify();
closeOnSignal(
  async () => {
    await metricsServer.close();
    // Stops the runner after the batch it is applying (its transaction commits or rolls back whole).
    await platform.close();
  },
  { log: platform.log, deadlineMs: config.SHUTDOWN_TIMEOUT_MS },
);
await platform.projector.start();
metricsServer.get('/metrics', async (_req, reply) =>
  reply.header('content-type', platform.metrics.registry.contentType).send(await platform.metrics.registry.metrics()),
);
// An operator surface: bound to METRICS_HOST (loopback unless the deployment says otherwise).
await metricsServer.listen({ port: config.METRICS_PORT ?? 9464, host: config.METRICS_HOST });
platform.log.info('projector running');
