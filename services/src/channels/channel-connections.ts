import { randomBytes } from 'node:crypto';
import {
  channelSetupMessages,
  integrationMessages,
  type AllPosition,
  type ChannelKind,
  type InstagramIntegrationDto,
  type TelegramIntegrationDto,
  type WhatsAppIntegrationDto,
} from '@kesher/contracts';
import type { AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import type { ChannelQueries, IntegrationRow } from '@kesher/projections/channels/channels.queries';
import { channelStreams } from '../domain/channel-integration/channel-streams.js';
import { channelIntegrationDecider } from '../domain/channel-integration/channel-integration.decider.js';
import { featureAllowed, type PlanOf, requireFeature } from '../plans/index.js';
import { aggregateStream } from '../platform/commands/aggregate-stream.js';
import { DomainError } from '../platform/commands/decider.js';
import type { CommandContext, CommandHandler } from '../platform/commands/command-handler.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import { maskSecret } from '../platform/secrets/secret-box.js';
import { ChannelApiError } from './channel-api-error.js';
import type { ChannelAdapter, ChannelSetup } from './channel.port.js';
import type { ChannelSecretsBox } from './channel-secrets.js';

export interface ChannelConnectionsDeps {
  handle: CommandHandler;
  eventStore: EventStore;
  queries: ChannelQueries;
  adapters: Record<ChannelKind, ChannelAdapter>;
  secrets: ChannelSecretsBox;
  planOf: PlanOf;
  awaitReadModels: AwaitReadModels;
  /** Where Meta and Telegram reach Kesher: webhook addresses are built on it. */
  publicUrl: string;
  /** The deployment's Meta app secret (META_APP_SECRET), used when the owner gives none of their own. */
  metaAppSecret?: string;
  /** Told when a connection ends (replaced or disconnected), so caches of it are dropped at once. */
  onEnded?: (integrationId: string) => void;
  /** Logs what the owner is not told (a disconnect the channel refused). */
  log?: (message: string) => void;
}

/** Told when a write's read-your-writes wait ran out (the route marks its answer pending: readModelsPending). */
type Pending = (position: AllPosition, eventTypes: readonly string[]) => void;

const CHANNEL_NAMES = { telegram: 'Telegram', whatsapp: 'WhatsApp', instagram: 'Instagram' } as const;

export const webhookPath = (kind: ChannelKind, integrationId: string) =>
  `/api/v1/channels/${kind}/${integrationId}/webhook`;
const newIntegrationId = () => `int_${randomBytes(16).toString('hex')}`;
/** Telegram's secret_token allows 1–256 of A–Z, a–z, 0–9, _ and -: base64url of 32 random bytes is such. */
const newWebhookSecret = () => randomBytes(32).toString('base64url');

/**
 * Connecting, reading and disconnecting an assistant's channels (spec part 2 §7 Integrations). The token is
 * checked with the channel before anything is recorded; a refusal is the spec's failure text followed by
 * the channel's own reason. Tokens are sealed before they reach the log and are shown masked only.
 */
export function createChannelConnections(deps: ChannelConnectionsDeps) {
  const webhookUrl = (kind: ChannelKind, integrationId: string) =>
    `${deps.publicUrl}${webhookPath(kind, integrationId)}`;

  /** `paused`: the owner's plan no longer includes the channel, so the worker does not answer it (see channelAnswered). */
  function toDto(
    row: IntegrationRow,
    paused: boolean,
  ): TelegramIntegrationDto | WhatsAppIntegrationDto | InstagramIntegrationDto {
    const masked = maskSecret(row.token_last4, { tailOnly: true });
    const common = {
      is_active: row.active,
      webhook_url: webhookUrl(row.kind, row.integration_id),
      connected_at: row.connected_at,
      status: paused ? ('paused' as const) : ('active' as const),
      status_reason: paused ? integrationMessages.paused[row.kind] : null,
    };
    const account = row.account;
    switch (account.kind) {
      case 'telegram':
        return {
          ...common,
          bot_username: account.botUsername,
          bot_token_masked: masked,
        } satisfies TelegramIntegrationDto;
      case 'whatsapp':
        return {
          ...common,
          phone_number: account.phoneNumber,
          business_name: account.businessName,
          webhook_verify_token: deps.secrets.open(row.integration_id, row.sealed_secrets).webhookSecret,
          phone_number_id: account.phoneNumberId,
          business_account_id: account.businessAccountId,
          access_token_masked: masked,
        } satisfies WhatsAppIntegrationDto;
      case 'instagram':
        return {
          ...common,
          username: account.username,
          followers_count: account.followersCount,
          webhook_verify_token: deps.secrets.open(row.integration_id, row.sealed_secrets).webhookSecret,
          instagram_account_id: account.instagramAccountId,
          page_id: account.pageId,
          page_access_token_masked: masked,
        } satisfies InstagramIntegrationDto;
    }
  }

  /** Tells the channel the connection ended (Telegram: deleteWebhook); best effort, Kesher stops answering it anyway. */
  async function forget(integrationId: string, account: IntegrationRow['account'], sealedSecrets: string) {
    try {
      await deps.adapters[account.kind].disconnect(account, deps.secrets.open(integrationId, sealedSecrets));
    } catch (error) {
      deps.log?.(
        `${CHANNEL_NAMES[account.kind]} refused to end the connection ${integrationId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async function current(ownerId: string, assistant: AssistantRow, kind: ChannelKind) {
    const row = await deps.queries.activeIntegration(ownerId, assistant.id, kind);
    if (!row) throw new DomainError('not_found', integrationMessages.notConnected[kind]);
    return row;
  }

  return {
    /**
     * `pending` is told when the read models had not applied the connection when the wait ran out (the
     * route marks its answer Kesher-Consistency: pending); the answer is then the connection as recorded.
     */
    async connect(
      context: CommandContext,
      ownerId: string,
      assistant: AssistantRow,
      setup: ChannelSetup,
      pending?: Pending,
    ) {
      const kind = setup.kind;
      await requireFeature(deps.planOf, ownerId, kind);
      const ownAppSecret = setup.kind === 'telegram' ? null : setup.appSecret;
      if (kind !== 'telegram' && !ownAppSecret && !deps.metaAppSecret)
        throw new DomainError('bad_request', channelSetupMessages.refused[kind](integrationMessages.appSecretNeeded), {
          code: `channelSetup.refused.${kind}`,
          args: [integrationMessages.appSecretNeeded],
        });
      const integrationId = newIntegrationId();
      const webhookSecret = newWebhookSecret();
      const stream = channelStreams.integration(assistant.id, kind);
      const before = await aggregateStream(deps.eventStore, channelIntegrationDecider, stream);
      let connected;
      try {
        connected = await deps.adapters[kind].connect(setup, {
          url: webhookUrl(kind, integrationId),
          secret: webhookSecret,
        });
      } catch (error) {
        if (error instanceof ChannelApiError)
          throw new DomainError('bad_request', channelSetupMessages.refused[kind](error.reason), {
            code: `channelSetup.refused.${kind}`,
            args: [error.reason],
          });
        throw error;
      }
      const connection = {
        integrationId,
        assistantId: assistant.id,
        ownerId,
        account: connected.account,
        sealedSecrets: deps.secrets.seal(integrationId, {
          token: connected.token,
          webhookSecret,
          appSecret: ownAppSecret,
        }),
        tokenLast4: connected.token.slice(-4),
      };
      const { appended } = await deps.handle(
        channelIntegrationDecider,
        stream,
        { type: 'ConnectChannel', data: connection },
        context,
      );
      // Another bot was connected before: its webhook no longer leads anywhere, so Telegram is told to stop.
      if (
        before.state.status === 'connected' &&
        before.state.integration.account.kind === 'telegram' &&
        connected.account.kind === 'telegram'
      ) {
        const old = before.state.integration;
        if (old.account.kind === 'telegram' && old.account.botId !== connected.account.botId)
          await forget(old.integrationId, old.account, old.sealedSecrets);
      }
      const applied = !appended || (await deps.awaitReadModels(appended.position, ['ChannelConnected']));
      if (before.state.status === 'connected') deps.onEnded?.(before.state.integration.integrationId);
      if (applied) return toDto(await current(ownerId, assistant, kind), false);
      // Behind: the connection as recorded (the read model may still show the one it replaced, or none).
      pending?.(appended!.position, ['ChannelConnected']);
      return toDto(
        {
          integration_id: connection.integrationId,
          assistant_id: connection.assistantId,
          owner_id: ownerId,
          kind,
          active: true,
          account: connection.account,
          sealed_secrets: connection.sealedSecrets,
          token_last4: connection.tokenLast4,
          connected_at: Math.floor(context.now.getTime() / 1000),
        },
        false,
      );
    },

    async read(ownerId: string, assistant: AssistantRow, kind: ChannelKind) {
      const [row, plan] = await Promise.all([current(ownerId, assistant, kind), deps.planOf(ownerId)]);
      return toDto(row, !featureAllowed(plan, kind));
    },

    async disconnect(
      context: CommandContext,
      ownerId: string,
      assistant: AssistantRow,
      kind: ChannelKind,
      pending?: Pending,
    ) {
      const row = await current(ownerId, assistant, kind);
      const { appended } = await deps.handle(
        channelIntegrationDecider,
        channelStreams.integration(assistant.id, kind),
        { type: 'DisconnectChannel', data: { ownerId, kind } },
        context,
      );
      await forget(row.integration_id, row.account, row.sealed_secrets);
      if (appended && !(await deps.awaitReadModels(appended.position, ['ChannelDisconnected'])))
        pending?.(appended.position, ['ChannelDisconnected']);
      deps.onEnded?.(row.integration_id);
      return { success: true as const, detail: integrationMessages.disconnected[kind] };
    },

    async stats(ownerId: string, assistant: AssistantRow, kind: 'whatsapp' | 'instagram', now: Date) {
      // Active: wrote within the last 24 hours — the window in which Meta lets a business answer freely.
      return deps.queries.chats(ownerId, assistant.id, kind, {
        activeSince: new Date(now.getTime() - 24 * 3600_000),
        limit: 50,
      });
    },
  };
}
export type ChannelConnections = ReturnType<typeof createChannelConnections>;
