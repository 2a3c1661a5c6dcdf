import {
  ErrorBodySchema,
  InstagramIntegrationSchema,
  InstagramSetupBodySchema,
  InstagramSetupResponseSchema,
  InstagramStatsSchema,
  IntegrationDisconnectedSchema,
  integrationMessages,
  messages,
  NumericIdParamSchema,
  TelegramIntegrationSchema,
  TelegramSetupBodySchema,
  TelegramSetupResponseSchema,
  WhatsAppIntegrationSchema,
  WhatsAppSetupBodySchema,
  WhatsAppSetupResponseSchema,
  WhatsAppStatsSchema,
  type ChannelKind,
  type InstagramIntegrationDto,
  type TelegramIntegrationDto,
  type WhatsAppIntegrationDto,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ChannelConnections, ChannelSetup } from '../../../channels/index.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { commandContext, readModelsPending } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

export interface IntegrationRoutesDeps {
  readDb: Sql;
  connections: ChannelConnections;
  clock: () => Date;
}

/** The setup bodies are parsed here, not by the route schema: a missing field is the spec's own text (§5) as a 400. */
function parsed<T>(schema: z.ZodType<T>, body: unknown, missing: string): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ApiError(400, issue?.code === 'invalid_type' || !issue?.message ? missing : issue.message);
}

const setupOf = {
  telegram: (body: unknown): ChannelSetup => ({
    kind: 'telegram',
    botToken: parsed(TelegramSetupBodySchema, body, integrationMessages.telegramTokenRequired).bot_token,
  }),
  whatsapp: (body: unknown): ChannelSetup => {
    const b = parsed(WhatsAppSetupBodySchema, body, integrationMessages.whatsappFieldsRequired);
    return {
      kind: 'whatsapp',
      accessToken: b.access_token,
      phoneNumberId: b.phone_number_id,
      businessAccountId: b.business_account_id,
      testNumber: b.test_number,
      appSecret: b.app_secret,
    };
  },
  instagram: (body: unknown): ChannelSetup => {
    const b = parsed(InstagramSetupBodySchema, body, integrationMessages.instagramFieldsRequired);
    return {
      kind: 'instagram',
      pageAccessToken: b.page_access_token,
      instagramAccountId: b.instagram_account_id,
      pageId: b.page_id,
      testUserId: b.test_user_id,
      appSecret: b.app_secret,
    };
  },
} satisfies Record<ChannelKind, (body: unknown) => ChannelSetup>;

const integrationSchema = {
  telegram: TelegramIntegrationSchema,
  whatsapp: WhatsAppIntegrationSchema,
  instagram: InstagramIntegrationSchema,
} as const;
const setupResponse = {
  telegram: TelegramSetupResponseSchema,
  whatsapp: WhatsAppSetupResponseSchema,
  instagram: InstagramSetupResponseSchema,
} as const;
const names = { telegram: 'Telegram', whatsapp: 'WhatsApp', instagram: 'Instagram' } as const;
const refusals = {
  400: ErrorBodySchema.describe(
    'The spec\'s text for a missing field, or "Failed to setup … integration: <the channel\'s own reason>"',
  ),
  403: ErrorBodySchema.describe('The plan has no channels: a paid plan is needed'),
  404: ErrorBodySchema.describe('No such assistant of yours'),
};

/** Spec part 2 §7 "Integrations (per assistant id)": connect, read and disconnect Telegram, WhatsApp and Instagram, and the stats. */
export const integrationRoutes =
  (deps: IntegrationRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);

    async function ownedAssistant(request: FastifyRequest, id: number) {
      const account = requireAccount(request);
      const assistant = await assistants.findOwned(account.id, id);
      if (!assistant) throw new ApiError(404, messages.assistantNotFound);
      return { account, assistant };
    }

    async function setup(request: FastifyRequest, id: number, body: unknown, kind: ChannelKind) {
      const { account, assistant } = await ownedAssistant(request, id);
      return deps.connections.connect(
        commandContext(request, deps.clock),
        account.id,
        assistant,
        setupOf[kind](body),
        (position, types) => readModelsPending(request, position, types),
      );
    }

    const reply = (
      kind: ChannelKind,
      integration: TelegramIntegrationDto | WhatsAppIntegrationDto | InstagramIntegrationDto,
    ) => {
      const message = `${names[kind]} integration connected`;
      if (kind === 'telegram') {
        const telegram = integration as TelegramIntegrationDto;
        return {
          success: true as const,
          message,
          bot_username: telegram.bot_username,
          is_active: telegram.is_active,
          integration: telegram,
        };
      }
      return { success: true as const, message, integration };
    };

    for (const kind of ['telegram', 'whatsapp', 'instagram'] as const) {
      const response = setupResponse[kind];
      const setupSchema = {
        summary: `Connect ${names[kind]} to an assistant (the token is checked with ${names[kind]} first; paid plans)`,
        params: NumericIdParamSchema,
        body: z.unknown(),
        response: { 200: response, ...refusals },
      };
      // The spec names both: POST /assistants/{id}/<channel>/setup, and POST /assistants/{id}/<channel>.
      app.post(`/assistants/:id/${kind}/setup`, { schema: setupSchema }, async (request) =>
        response.parse(reply(kind, await setup(request, request.params.id, request.body, kind))),
      );
      app.post(
        `/assistants/:id/${kind}`,
        { schema: { ...setupSchema, summary: `${setupSchema.summary}; same as …/setup` } },
        async (request) => response.parse(reply(kind, await setup(request, request.params.id, request.body, kind))),
      );

      app.get(
        `/assistants/:id/${kind}`,
        {
          schema: {
            summary: `The assistant's ${names[kind]} connection, token masked to its last 4 characters; 404 means not connected`,
            params: NumericIdParamSchema,
            response: { 200: integrationSchema[kind], 404: ErrorBodySchema },
          },
        },
        async (request) => {
          const { account, assistant } = await ownedAssistant(request, request.params.id);
          return deps.connections.read(account.id, assistant, kind);
        },
      );

      app.delete(
        `/assistants/:id/${kind}`,
        {
          schema: {
            summary: `Disconnect ${names[kind]} (its webhook is answered no more)`,
            params: NumericIdParamSchema,
            response: { 200: IntegrationDisconnectedSchema, 404: ErrorBodySchema },
          },
        },
        async (request) => {
          const { account, assistant } = await ownedAssistant(request, request.params.id);
          return deps.connections.disconnect(
            commandContext(request, deps.clock),
            account.id,
            assistant,
            kind,
            (position, types) => readModelsPending(request, position, types),
          );
        },
      );
    }

    app.get(
      '/whatsapp/stats/:id',
      {
        schema: {
          summary: 'WhatsApp chats of an assistant: total, active in the last 24 hours, the latest 50',
          params: NumericIdParamSchema,
          response: { 200: WhatsAppStatsSchema },
        },
      },
      async (request) => {
        const { account, assistant } = await ownedAssistant(request, request.params.id);
        const stats = await deps.connections.stats(account.id, assistant, 'whatsapp', deps.clock());
        return {
          total_chats: stats.total,
          active_chats: stats.active,
          chats: stats.chats.map((c) => ({
            profile_name: c.name,
            wa_id: c.chat_id,
            last_message_at: c.last_message_at,
          })),
        };
      },
    );

    app.get(
      '/instagram/stats/:id',
      {
        schema: {
          summary: 'Instagram chats of an assistant: total, active in the last 24 hours, the latest 50',
          params: NumericIdParamSchema,
          response: { 200: InstagramStatsSchema },
        },
      },
      async (request) => {
        const { account, assistant } = await ownedAssistant(request, request.params.id);
        const stats = await deps.connections.stats(account.id, assistant, 'instagram', deps.clock());
        return {
          total_chats: stats.total,
          active_chats: stats.active,
          chats: stats.chats.map((c) => ({
            username: c.name,
            instagram_user_id: c.chat_id,
            last_message_at: c.last_message_at,
          })),
        };
      },
    );
  };
