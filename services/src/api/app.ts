import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import type { Authenticator } from '../identity/authenticator.js';
import { authPlugin } from './plugins/auth.plugin.js';
import { clientPlugin } from './plugins/client.plugin.js';
import { errorsPlugin } from './plugins/errors.plugin.js';
import { openapiPlugin } from './plugins/openapi.plugin.js';
import { responseSerializerCompiler } from './plugins/response-serializer.js';
import { securityPlugin, type SecurityOptions } from './plugins/security.plugin.js';
import { assistantRoutes, type AssistantRoutesDeps } from './routes/assistants/assistants.routes.js';
import { authRoutes, type AuthRoutesDeps } from './routes/auth/auth.routes.js';
import { fileRoutes, type FileRoutesDeps } from './routes/files/files.routes.js';
import { healthRoutes, type HealthDeps } from './routes/health/health.routes.js';
import { limitsRoutes, type LimitsRoutesDeps } from './routes/limits/limits.routes.js';
import { shareRoutes } from './routes/share/share.routes.js';
import { publicThreadRoutes } from './routes/threads/public-threads.routes.js';
import type { ThreadRoutesDeps } from './routes/threads/thread-chat.js';
import { threadRoutes } from './routes/threads/threads.routes.js';

export interface AppDeps {
  health: HealthDeps;
  metricsRegistry: Registry;
  security: SecurityOptions;
  authenticator: Authenticator;
  auth: AuthRoutesDeps;
  assistants: AssistantRoutesDeps;
  publicUrl: string;
  files: FileRoutesDeps;
  threads: ThreadRoutesDeps;
  limits: LimitsRoutesDeps;
  logger?: boolean;
  /** The built PWA to serve at `/`, when present. */
  clientDistDir?: string;
  /** Largest request body accepted (uploads have their own limit). */
  bodyLimitBytes?: number;
}

/**
 * The /api/v1 facade, in the order infrastructure plugins → app plugins → routes. Each route folder
 * is an encapsulated plugin that receives only the dependencies it uses.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    genReqId: () => randomUUID(),
    bodyLimit: deps.bodyLimitBytes ?? 1024 * 1024,
    trustProxy: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  // Infrastructure
  await app.register(authPlugin, { authenticator: deps.authenticator });
  await app.register(securityPlugin, deps.security);
  await app.register(errorsPlugin);
  await app.register(openapiPlugin);
  app.get('/api/v1/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', deps.metricsRegistry.contentType);
    return deps.metricsRegistry.metrics();
  });

  // Routes
  await app.register(
    async (api) => {
      await api.register(healthRoutes(deps.health));
      await api.register(authRoutes(deps.auth));
      await api.register(assistantRoutes(deps.assistants));
      await api.register(shareRoutes({ ...deps.assistants, publicUrl: deps.publicUrl }));
      await api.register(fileRoutes(deps.files));
      await api.register(threadRoutes(deps.threads));
      await api.register(publicThreadRoutes(deps.threads));
      await api.register(limitsRoutes(deps.limits));
    },
    { prefix: '/api/v1' },
  );
  if (deps.clientDistDir) await app.register(clientPlugin, { distDir: deps.clientDistDir });
  return app;
}
