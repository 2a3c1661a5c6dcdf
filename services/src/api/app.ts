import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { healthRoutes, type HealthDeps } from './routes/health/health.routes.js';

export interface AppDeps extends HealthDeps {
  metricsRegistry: Registry;
  logger?: boolean;
}

/**
 * The /api/v1 facade. Infrastructure first (metrics), then routes; each route folder is an
 * encapsulated plugin receiving only the dependencies it needs.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: deps.logger ?? false });

  app.get('/api/v1/metrics', async (_request, reply) => {
    reply.header('content-type', deps.metricsRegistry.contentType);
    return deps.metricsRegistry.metrics();
  });

  await app.register(healthRoutes(deps), { prefix: '/api/v1' });
  return app;
}
