import { timingSafeEqual } from 'node:crypto';
import { messages, requestMessages, type ChannelKind } from '@kesher/contracts';
import type { ChannelQueries, IntegrationRow } from '@kesher/projections/channels/channels.queries';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type ChannelSecretsBox,
  type InboundRecorder,
  metaHandshake,
  metaSignatureValid,
  readInstagramDelivery,
  readTelegramUpdate,
  readWhatsAppDelivery,
} from '../../../channels/index.js';
import { ApiError } from '../../api-error.js';

export interface ChannelWebhookDeps {
  queries: Pick<ChannelQueries, 'integration'>;
  secrets: ChannelSecretsBox;
  record: InboundRecorder;
  /** The deployment's Meta app secret, for connections whose owner gave none. */
  metaAppSecret?: string;
  clock: () => Date;
  /** Deliveries one integration may make per minute before 429 (the channels retry later). */
  perMinute: number;
  log: (entry: Record<string, unknown>, message: string) => void;
}

const Params = z.object({ integrationId: z.string().regex(/^int_[0-9a-f]{32}$/) });
const ok = { ok: true } as const;

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The channels' webhooks (public: Telegram and Meta call them). Each delivery proves itself first — the
 * secret token Telegram repeats, Meta's HMAC signature of the raw body — and is refused (401 missing, 403
 * wrong) before anything is recorded. A proven delivery is recorded as events and answered 200 at once;
 * the answer to the customer comes later from the channels worker, so a slow model never makes the
 * channel retry. A delivery for a disconnected integration is answered 200 (or the channel would retry it
 * for days) and ignored, with a log line.
 */
export const channelWebhookRoutes =
  (deps: ChannelWebhookDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    // The signature covers the exact bytes Meta sent: this plugin (encapsulated) reads JSON as a Buffer.
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    /** The connection each request names, found before its limits are counted (see connectionOf). */
    const connections = new WeakMap<FastifyRequest, IntegrationRow>();
    // A connection's deliveries have their own limit, not the per-address one: Telegram and Meta post from
    // few addresses. A request that names no connection is not counted here but against its address.
    const rateLimit = {
      max: deps.perMinute,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `webhook:${connections.get(request)?.integration_id ?? ''}`,
      allowList: (request: FastifyRequest) => !connections.has(request),
    };
    // The API-wide per-address limit (security.plugin.ts), the same counter every anonymous request uses.
    const addressLimit = app.createRateLimit ? app.createRateLimit() : undefined;

    /**
     * Finds the connection of `kind` the address names, before validation and the limits. Where there is
     * none (an unknown or malformed id, another channel's), the request counts against the caller's address
     * like any other anonymous request: before, each made-up id had a fresh allowance of its own, so a
     * flood of them from one address was answered 404 without end, a database read each.
     */
    const connectionOf = (kind: ChannelKind) => async (request: FastifyRequest, reply: FastifyReply) => {
      const named = Params.safeParse(request.params);
      const row = named.success ? await deps.queries.integration(named.data.integrationId) : undefined;
      if (row && row.kind === kind) return void connections.set(request, row);
      const verdict = addressLimit ? await addressLimit(request) : undefined;
      if (verdict && !verdict.isAllowed && verdict.isExceeded) {
        reply.header('retry-after', String(verdict.ttlInSeconds));
        throw new ApiError(429, messages.tooManyRequests);
      }
    };
    const webhookOptions = (kind: ChannelKind, summary: string) => ({
      schema: { summary, tags: ['channels'], params: Params },
      preValidation: connectionOf(kind),
      config: { rateLimit },
    });

    function integrationOf(request: FastifyRequest): IntegrationRow {
      const row = connections.get(request);
      if (!row) throw new ApiError(404, messages.notFound);
      return row;
    }
    const secretsOf = (row: IntegrationRow) => deps.secrets.open(row.integration_id, row.sealed_secrets);
    const ignored = (reply: FastifyReply, row: IntegrationRow, why: string) => {
      deps.log(
        { integrationId: row.integration_id, kind: row.kind, assistantId: row.assistant_id },
        `channel delivery ignored: ${why}`,
      );
      return reply.status(200).send(ok);
    };
    const json = (raw: unknown): unknown => {
      if (!Buffer.isBuffer(raw)) return raw;
      try {
        return JSON.parse(raw.toString('utf8'));
      } catch {
        throw new ApiError(400, requestMessages.notJson);
      }
    };

    app.post(
      '/channels/telegram/:integrationId/webhook',
      webhookOptions('telegram', 'Telegram updates for one connected bot'),
      async (request, reply) => {
        const row = integrationOf(request);
        const given = request.headers['x-telegram-bot-api-secret-token'];
        if (typeof given !== 'string' || given === '') throw new ApiError(401, 'The secret token is missing.');
        if (!sameText(given, secretsOf(row).webhookSecret)) throw new ApiError(403, 'The secret token is wrong.');
        if (!row.active) return ignored(reply, row, 'the integration is disconnected');
        const update = readTelegramUpdate(json(request.body));
        if ('ignored' in update) return ignored(reply, row, update.ignored);
        await deps.record(row, { messages: [update.message], statuses: [] });
        return reply.status(200).send(ok);
      },
    );

    for (const kind of ['whatsapp', 'instagram'] as const) {
      app.get(
        `/channels/${kind}/:integrationId/webhook`,
        webhookOptions(kind, `Meta's webhook verification handshake for one ${kind} connection`),
        async (request, reply) => {
          const row = integrationOf(request);
          if (!row.active) throw new ApiError(404, messages.notFound);
          const challenge = metaHandshake(request.query as Record<string, unknown>, secretsOf(row).webhookSecret);
          if (challenge === undefined) throw new ApiError(403, 'The verify token is wrong.');
          return reply.status(200).type('text/plain').send(challenge);
        },
      );

      app.post(
        `/channels/${kind}/:integrationId/webhook`,
        webhookOptions(kind, `Meta's ${kind} deliveries for one connection (signed)`),
        async (request, reply) => {
          const row = integrationOf(request);
          const signature = request.headers['x-hub-signature-256'];
          if (typeof signature !== 'string' || signature === '')
            throw new ApiError(401, 'The X-Hub-Signature-256 signature is missing.');
          const appSecret = secretsOf(row).appSecret ?? deps.metaAppSecret;
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from(JSON.stringify(request.body ?? ''));
          if (!appSecret || !metaSignatureValid(raw, signature, appSecret))
            throw new ApiError(403, 'The X-Hub-Signature-256 signature is wrong.');
          if (!row.active) return ignored(reply, row, 'the integration is disconnected');
          const body = json(raw);
          const account = row.account;
          const delivery =
            account.kind === 'whatsapp'
              ? readWhatsAppDelivery(body, account.phoneNumberId, deps.clock())
              : account.kind === 'instagram'
                ? readInstagramDelivery(
                    body,
                    [account.instagramAccountId, ...(account.pageId ? [account.pageId] : [])],
                    deps.clock(),
                  )
                : undefined;
          if (!delivery) return ignored(reply, row, `not a ${kind} delivery`);
          if (delivery.messages.length === 0 && delivery.statuses.length === 0)
            return ignored(reply, row, 'nothing Kesher reads');
          await deps.record(row, delivery);
          return reply.status(200).send(ok);
        },
      );
    }
  };
