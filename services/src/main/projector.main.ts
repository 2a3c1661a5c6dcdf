import Fastify from 'fastify';
import { loadConfig } from '../platform/config/config.js';
import { composePlatform } from './compose-platform.js';

/** The projector process of the production topology: builds every read model; exposes /metrics. */
const config = loadConfig();
const platform = await composePlatform(config, { applicationName: 'kesher-projector' });
await platform.projector.start();
const metricsServer = Fastify();
metricsServer.get('/metrics', async (_req, reply) => reply.header('content-type', platform.metrics.registry.contentType).send(await platform.metrics.registry.metrics()));
// An operator surface: bound to METRICS_HOST (loopback unless the deployment says otherwise).
await metricsServer.listen({ port: config.METRICS_PORT ?? 9464, host: config.METRICS_HOST });
console.log('projector running');

const shutdown = async () => {
  await metricsServer.close();
  await platform.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
