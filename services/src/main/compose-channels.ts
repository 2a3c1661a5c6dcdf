import { hkdfSync } from 'node:crypto';
import { usageMonth } from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { usageQueries } from '@kesher/projections/usage/usage.queries';
import { livePlanBook } from '../billing/index.js';
import { channelQueries } from '@kesher/projections/channels/channels.queries';
import type { ChannelWebhookDeps } from '../api/routes/integrations/channel-webhooks.routes.js';
import type { IntegrationRoutesDeps } from '../api/routes/integrations/integrations.routes.js';
import type { InboxRoutesDeps } from '../api/routes/inbox/inbox.routes.js';
import {
  cachedIntegrations,
  createChannelAdapters,
  createChannelConnections,
  createChannelSecrets,
  createChatFloodLimit,
  createInboundRecorder,
} from '../channels/index.js';
import { createLimitBuckets } from '../platform/limits/limit-buckets.js';
import { featureAllowed, type PlanOf } from '../plans/index.js';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import { createSecretBox } from '../platform/secrets/secret-box.js';
import { loadSecretsKey } from '../platform/secrets/secrets-key.js';
import { createChannelsWorker, type ChannelsWorkerDeps } from '../workers/channels/channels.worker.js';
import type { Platform } from './compose-platform.js';

/** The channels' shared parts: the three adapters on their configured base URLs and the sealed secrets. */
function channelParts(platform: Platform) {
  const config = platform.config;
  const key = loadSecretsKey(config);
  return {
    adapters: createChannelAdapters({
      telegram: config.TELEGRAM_API_URL,
      whatsapp: config.WHATSAPP_API_URL,
      instagram: config.INSTAGRAM_API_URL,
    }),
    secrets: createChannelSecrets(createSecretBox({ key })),
    // Names customers' conversations (see channels.worker.ts); its own label, so it is not the sealing key.
    contactKey: new Uint8Array(hkdfSync('sha256', key, 'kesher', 'kesher channel contacts v1', 32)),
  };
}

/** The Integrations calls, the channels' webhooks and the one inbox, for composeApi. */
export function composeChannelsApi(wiring: {
  platform: Platform;
  planOf: PlanOf;
  awaitReadModels: AwaitReadModels;
  publicUrl: string;
  clock: () => Date;
}): {
  integrations: IntegrationRoutesDeps;
  webhooks: ChannelWebhookDeps;
  inbox: InboxRoutesDeps;
  /** Follows the connections other API processes end (the webhook cache); resolves to a stop function. */
  listen(): Promise<() => Promise<void>>;
} {
  const { platform, clock } = wiring;
  const config = platform.config;
  const parts = channelParts(platform);
  const queries = channelQueries(platform.sql);
  const webhookIntegrations = cachedIntegrations(queries, {
    shared: platform.sql,
    onError: (error) =>
      platform.log.error({ err: error }, 'channels: telling other processes a connection ended failed'),
  });
  const connections = createChannelConnections({
    handle: platform.handle,
    eventStore: platform.eventStore,
    queries,
    adapters: parts.adapters,
    secrets: parts.secrets,
    planOf: wiring.planOf,
    awaitReadModels: wiring.awaitReadModels,
    publicUrl: wiring.publicUrl,
    metaAppSecret: config.META_APP_SECRET,
    onEnded: (integrationId) => void webhookIntegrations.ended(integrationId),
    log: (message) => platform.log.warn(message),
  });
  return {
    integrations: { readDb: platform.sql, connections, clock },
    webhooks: {
      queries: webhookIntegrations,
      secrets: parts.secrets,
      record: createInboundRecorder({ eventStore: platform.eventStore, clock }),
      metaAppSecret: config.META_APP_SECRET,
      clock,
      perMinute: config.CHANNEL_WEBHOOK_PER_MINUTE,
      log: (entry, message) => platform.log.warn(entry, message),
    },
    inbox: { handle: platform.handle, readDb: platform.sql, awaitReadModels: wiring.awaitReadModels, clock },
    listen: () => webhookIntegrations.listen(),
  };
}

/** The channels worker (customers' messages in, answers out), for composeWorkers. */
export function composeChannelsWorker(wiring: {
  platform: Platform;
  groupIds: { inbound: string; outbound: string };
  planOf?: PlanOf;
  forget?: ChannelsWorkerDeps['forget'];
}) {
  const { platform } = wiring;
  const config = platform.config;
  const parts = channelParts(platform);
  const assistants = assistantQueries(platform.sql);
  const planOf = wiring.planOf ?? livePlanBook(platform);
  const usage = usageQueries(platform.sql);
  return createChannelsWorker({
    bus: platform.bus,
    eventStore: platform.eventStore,
    handle: platform.handle,
    adapters: parts.adapters,
    secrets: parts.secrets,
    contactKey: parts.contactKey,
    findAssistant: async (assistantId) => {
      const row = await assistants.findById(assistantId);
      return row && { chatLimit: row.chat_limit };
    },
    // Shared by every worker process (Postgres): a chat's messages may reach any of them.
    floodLimit: createChatFloodLimit({
      perMinute: config.CHANNEL_CHAT_PER_MINUTE,
      buckets: createLimitBuckets({ sql: platform.sql }),
    }),
    // Like the web chat's check (plans/message-quota.ts) without its in-process marks: a limit can be
    // passed by the messages in flight at the moment it is reached, never by more.
    monthlyQuota: async (ownerId) => {
      const [plan, used] = await Promise.all([planOf(ownerId), usage.messagesInMonth(ownerId, usageMonth(new Date()))]);
      return { allowed: used < plan.limits.max_messages_per_month, limit: plan.limits.max_messages_per_month };
    },
    // The same gate as connecting (plans/feature-gates.ts), asked again for every customer's message.
    planIncludes: async (ownerId, kind) => featureAllowed(await planOf(ownerId), kind),
    runDeadlineSeconds: config.RUN_DEADLINE_SECONDS,
    // A customer's /forget (privacy/visitor-deletion), where an erasure is composed.
    forget: wiring.forget,
    groupIds: wiring.groupIds,
    log: (entry, message) => platform.log.warn(entry, message),
    onError: (error) => platform.log.error({ err: error }, 'channels failed'),
  });
}
