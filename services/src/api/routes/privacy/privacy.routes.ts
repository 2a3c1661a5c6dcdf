import { messages, SessionQuerySchema } from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Sql } from '../../../platform/sql/sql.port.js';
import {
  conversationKeptUntil,
  type OwnerDataExport,
  type RetentionPolicy,
  type SecurityLog,
  type VisitorConversationDeletion,
} from '../../../privacy/index.js';
import { ApiError } from '../../api-error.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { ThreadParams, threadIdOf } from '../threads/chat-http.js';

export interface PrivacyRoutesDeps {
  readDb: Sql;
  clock: () => Date;
  exporter: OwnerDataExport;
  securityLog: SecurityLog;
  retention: RetentionPolicy;
  /** Absent where no subject erasure is composed: the visitor's delete answers 404 then. */
  visitorDeletion?: VisitorConversationDeletion;
}

const RetentionSchema = z.object({
  conversation_days: z.number().int(),
  analytics_months: z.number().int(),
  security_log_months: z.number().int(),
  payment_years: z.number().int(),
  inactive_account_months: z.number().int(),
});

const SecurityLogSchema = z.object({
  entries: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      actor: z.string(),
      detail: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
      at: z.string(),
    }),
  ),
});

const KeptUntilSchema = z.object({
  conversation_days: z.number().int(),
  threads: z.array(z.object({ thread_id: z.string(), last_message_at: z.string(), kept_until: z.string() })),
});

/**
 * The owner's and visitors' privacy calls (issue 24; docs/privacy.md): the owner's data as a zip, the
 * owner's security log, the retention periods (public: the /privacy page shows them), each conversation's
 * "kept until" for Chat History, and a visitor deleting their own conversation.
 */
export const privacyRoutes =
  (deps: PrivacyRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);

    app.get(
      '/auth/me/export',
      {
        schema: {
          summary:
            "Download my data: a zip of the owner's account, assistants, files, conversations (with their channel), analytics and payments, as JSON and CSV",
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const zip = await deps.exporter.zip({ id: account.id, email: account.email });
        await deps.securityLog.record(account.id, {
          kind: 'data_exported',
          actor: `account:${account.id}`,
          detail: { bytes: zip.byteLength },
        });
        const day = deps.clock().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="kesher-my-data-${day}.zip"`)
          .header('cache-control', 'no-store')
          .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
      },
    );

    app.get(
      '/auth/me/security-log',
      {
        schema: {
          summary:
            "The owner's security log: data exports and erasures (a visitor's deletion, retention, a channel customer's /forget), newest first",
          response: { 200: SecurityLogSchema },
        },
      },
      async (request) => ({ entries: await deps.securityLog.list(requireAccount(request).id) }),
    );

    app.get(
      '/privacy/retention',
      {
        schema: {
          summary: 'How long Kesher keeps what (the /privacy page shows it)',
          response: { 200: RetentionSchema },
        },
      },
      async () => ({
        conversation_days: deps.retention.conversationDays,
        analytics_months: deps.retention.analyticsMonths,
        security_log_months: deps.retention.securityLogMonths,
        payment_years: deps.retention.paymentYears,
        inactive_account_months: deps.retention.inactiveAccountMonths,
      }),
    );

    app.get(
      '/assistants/:assistantId/threads/kept-until',
      {
        schema: {
          summary:
            'Chat History\'s "kept until …": when each conversation of the assistant is erased (its last message plus the conversation period)',
          params: z.object({ assistantId: z.string() }),
          response: { 200: KeptUntilSchema },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        const numericId = Number(request.params.assistantId);
        const assistant = Number.isSafeInteger(numericId)
          ? await assistants.findOwned(account.id, numericId)
          : undefined;
        if (!assistant) throw new ApiError(404, messages.assistantNotFound);
        const { rows } = await deps.readDb.query<{ id: string; last_at: Date | string }>(
          `SELECT t.id, coalesce((SELECT max(m.created_at) FROM thread_messages m WHERE m.thread_id = t.id), t.created_at) AS last_at
           FROM threads t WHERE t.assistant_owner_id = $1 AND t.assistant_id = $2`,
          [account.id, assistant.id],
        );
        return {
          conversation_days: deps.retention.conversationDays,
          threads: rows.map((row) => {
            const last = new Date(row.last_at);
            return {
              thread_id: row.id,
              last_message_at: last.toISOString(),
              kept_until: conversationKeptUntil(last, deps.retention).toISOString(),
            };
          }),
        };
      },
    );

    app.delete(
      '/threads/public/:threadId',
      {
        schema: {
          summary:
            "Public: the visitor deletes their own conversation (authorised by the visitor's session token); it is erased for good",
          params: ThreadParams,
          querystring: SessionQuerySchema,
        },
      },
      async (request, reply) => {
        const threadId = threadIdOf(request.params.threadId);
        if (!deps.visitorDeletion) throw new ApiError(404, messages.notFound);
        await deps.visitorDeletion.delete(request.query.session_token, threadId);
        return reply.status(204).send();
      },
    );
  };
