import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import { requestMessages } from '@kesher/contracts';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import type { Authenticator } from '../identity/index.js';
import type { TrustProxy } from '../platform/config/trust-proxy.js';
import { consistencyPlugin } from './command-runner.js';
import { authPlugin } from './plugins/auth.plugin.js';
import { signInFirstPlugin } from './plugins/sign-in-first.js';
import { clientPlugin } from './plugins/client.plugin.js';
import { errorsPlugin } from './plugins/errors.plugin.js';
import { metricsPlugin, type OperatorMetricsOptions } from './plugins/metrics.plugin.js';
import { openapiPlugin } from './plugins/openapi.plugin.js';
import { responseSerializerCompiler } from './plugins/response-serializer.js';
import { RequestLog } from './plugins/request-log.js';
import { safeTextPlugin } from './plugins/safe-text.plugin.js';
import { securityPlugin, type SecurityOptions } from './plugins/security.plugin.js';
import { assistantRoutes, type AssistantRoutesDeps } from './routes/assistants/assistants.routes.js';
import { authRoutes, type AuthRoutesDeps } from './routes/auth/auth.routes.js';
import { fileRoutes, type FileRoutesDeps } from './routes/files/files.routes.js';
import { healthRoutes, type HealthDeps } from './routes/health/health.routes.js';
import { limitsRoutes, type LimitsRoutesDeps } from './routes/limits/limits.routes.js';
import { analyticsRoutes } from './routes/analytics/analytics.routes.js';
import { keywordAnalyticsRoutes } from './routes/keyword-analytics/keyword-analytics.routes.js';
import { type AnalyticsApp, analyticsGraphqlPlugin } from '../analytics/index.js';
import { shareRoutes } from './routes/share/share.routes.js';
import { publicThreadRoutes } from './routes/threads/public-threads.routes.js';
import type { ThreadRoutesDeps } from './routes/threads/threads.routes.js';
import { threadRoutes } from './routes/threads/threads.routes.js';
import {
  crawlerSettingsRoutes,
  type CrawlerSettingsRoutesDeps,
} from './routes/crawler-settings/crawler-settings.routes.js';
import { crawlProgressRoutes, type CrawlProgressDeps } from './routes/web-crawler/crawl-progress.ws.js';
import { webCrawlerRoutes, type CrawlerRoutesDeps } from './routes/web-crawler/web-crawler.routes.js';
import { integrationRoutes, type IntegrationRoutesDeps } from './routes/integrations/integrations.routes.js';
import { channelWebhookRoutes, type ChannelWebhookDeps } from './routes/integrations/channel-webhooks.routes.js';
import { inboxRoutes, type InboxRoutesDeps } from './routes/inbox/inbox.routes.js';
import { googleDriveRoutes, type GoogleDriveRoutesDeps } from './routes/google-drive/google-drive.routes.js';
import { subscriptionRoutes, type SubscriptionRoutesDeps } from './routes/subscriptions/subscriptions.routes.js';
import { workflowRoutes } from './routes/workflows/workflows.routes.js';
import { guidelineRoutes } from './routes/guidelines/guidelines.routes.js';
import { actionRoutes } from './routes/actions/actions.routes.js';
import { externalApiRoutes } from './routes/external-api/external-api.routes.js';
import type { AutomationRoutesDeps } from './routes/workflows/automation-routes.deps.js';
import { privacyRoutes, type PrivacyRoutesDeps } from './routes/privacy/privacy.routes.js';
import { curatedAnswerRoutes, type CuratedAnswerRoutesDeps } from './routes/curated-answers/curated-answers.routes.js';

export interface AppDeps {
  health: HealthDeps;
  metricsRegistry: Registry;
  /** Who may read the metrics: an operator token, and/or a separate operator port (metrics.plugin.ts). */
  operatorMetrics?: Omit<OperatorMetricsOptions, 'registry'>;
  /** The proxies whose X-Forwarded-* headers are believed (TRUST_PROXY); none by default. */
  trustProxy?: TrustProxy;
  security: SecurityOptions;
  authenticator: Authenticator;
  auth: AuthRoutesDeps;
  assistants: AssistantRoutesDeps;
  publicUrl: string;
  files: FileRoutesDeps;
  threads: ThreadRoutesDeps;
  limits: LimitsRoutesDeps;
  /** Analytics: the /analytics and /keyword-analytics calls, and GraphQL at /api/v1/graphql. */
  analytics?: AnalyticsApp;
  /** The Smart Web Crawler: /web-crawler/*, /crawler-settings/*, /assistants/{id}/crawler-pages and the progress socket. */
  crawler?: { routes: CrawlerRoutesDeps; settings: CrawlerSettingsRoutesDeps; progress: CrawlProgressDeps };
  /** Telegram, WhatsApp and Instagram: /assistants/{id}/<channel>*, the stats, the channels' webhooks, and the one inbox. */
  channels?: { integrations: IntegrationRoutesDeps; webhooks: ChannelWebhookDeps; inbox: InboxRoutesDeps };
  /** Google Drive import: /google-drive/* (the consent screen, its return, list, import, Sign Out). */
  googleDrive?: GoogleDriveRoutesDeps;
  /** Plans, subscriptions and payments: /subscriptions/* (test payment page form and Stripe webhooks included). */
  subscriptions?: SubscriptionRoutesDeps;
  /** Workflows, guidelines, actions and the assistants' external API endpoints. */
  automation?: AutomationRoutesDeps;
  /** Download my data, the security log, retention periods and a visitor's own deletion (docs/privacy.md). */
  privacy?: PrivacyRoutesDeps;
  /** Curated answers (issue 26): /assistants/{id}/qa, its CSV export and import. */
  curatedAnswers?: CuratedAnswerRoutesDeps;
  /**
   * pino through Fastify: `true` logs at info, or give the level (and a destination, for tests). Errors
   * are logged with their stack by the error handler; per-request lines are off (they would drown them).
   */
  logger?: boolean | { level?: string; stream?: { write(line: string): void }; base?: Record<string, unknown> };
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
    logger: deps.logger === true ? { level: 'info' } : (deps.logger ?? false),
    logController: new RequestLog(),
    // Ids in paths longer than the router's default 100 reach their route, which answers them in the spec's
    // terms (a malformed thread id is 400 THREAD_INVALID) instead of a bare "bad URL".
    routerOptions: { maxParamLength: 1000 },
    // A URL the router cannot even decode (bad percent-encoding) answers in the API's one error shape.
    frameworkErrors: (_error, _request, reply) =>
      void (reply as FastifyReply).status(400).send({ detail: requestMessages.invalidAddress }),
    genReqId: () => randomUUID(),
    bodyLimit: deps.bodyLimitBytes ?? 1024 * 1024,
    // The client's address is the socket's unless the deployment names its proxies: trusting every
    // X-Forwarded-For let anyone pick their own address and walk past every per-address limit.
    trustProxy: fastifyTrustProxy(deps.trustProxy ?? false),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  // Infrastructure
  await app.register(authPlugin, { authenticator: deps.authenticator });
  await app.register(signInFirstPlugin);
  await app.register(securityPlugin, deps.security);
  await app.register(errorsPlugin);
  await app.register(safeTextPlugin);
  await app.register(openapiPlugin);
  await app.register(metricsPlugin, { registry: deps.metricsRegistry, ...deps.operatorMetrics });
  await app.register(consistencyPlugin, { registry: deps.metricsRegistry });
  // WebSockets (the crawl progress socket, GraphQL subscriptions), once for the whole server: routes in
  // any context get upgrades, and mercurius finds it registered instead of registering it again.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });

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
      if (deps.googleDrive) await api.register(googleDriveRoutes(deps.googleDrive));
      if (deps.subscriptions) await api.register(subscriptionRoutes(deps.subscriptions));
      if (deps.analytics) {
        await api.register(analyticsRoutes(deps.analytics.routes));
        await api.register(keywordAnalyticsRoutes(deps.analytics.keywords));
        await api.register(analyticsGraphqlPlugin(deps.analytics.graphql));
      }
      if (deps.crawler) {
        await api.register(webCrawlerRoutes(deps.crawler.routes));
        await api.register(crawlerSettingsRoutes(deps.crawler.settings));
        await api.register(crawlProgressRoutes(deps.crawler.progress));
      }
      if (deps.channels) {
        await api.register(integrationRoutes(deps.channels.integrations));
        await api.register(channelWebhookRoutes(deps.channels.webhooks));
        await api.register(inboxRoutes(deps.channels.inbox));
      }
      if (deps.automation) {
        await api.register(workflowRoutes(deps.automation));
        await api.register(guidelineRoutes(deps.automation));
        await api.register(actionRoutes(deps.automation));
        await api.register(externalApiRoutes(deps.automation));
      }
      if (deps.privacy) await api.register(privacyRoutes(deps.privacy));
      if (deps.curatedAnswers) await api.register(curatedAnswerRoutes(deps.curatedAnswers));
    },
    { prefix: '/api/v1' },
  );
  if (deps.clientDistDir) await app.register(clientPlugin, { distDir: deps.clientDistDir });
  return app;
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes "the nearest n hops are proxies" (this Fastify
 * version refuses a bare number): it cannot check who the nearest peer is, so it suits only a deployment
 * where nothing reaches the API except through its n proxies — addresses are the safer setting.
 */
function fastifyTrustProxy(setting: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
