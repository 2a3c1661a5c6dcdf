import { randomBytes } from 'node:crypto';
import {
  chatMessages,
  detectLanguage,
  ErrorBodySchema,
  InboxQuerySchema,
  InboxSchema,
  messages,
  OwnerReplyBodySchema,
  OwnerReplySchema,
  streamIds,
  TakeoverStateSchema,
  ThreadIdSchema,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { channelQueries } from '@kesher/projections/channels/channels.queries';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { threadDecider } from '../../../domain/thread/thread.decider.js';
import type { CommandHandler } from '../../../platform/commands/command-handler.js';
import type { AwaitReadModels } from '../../../platform/projections/read-model-progress.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { createCommandRunner } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

export interface InboxRoutesDeps {
  handle: CommandHandler;
  readDb: Sql;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
}

const ThreadParams = z.object({ threadId: z.string() });
const threadIdOf = (raw: string) => {
  const parsed = ThreadIdSchema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, chatMessages.threadInvalid);
  return parsed.data;
};

/**
 * The one inbox (beyond the spec): every conversation with the owner's assistants in one list — their own
 * chats, the widget's, share links' and the channels' — with the channel named; taking a customer's
 * conversation over (the assistant stops answering it), replying as the owner (sent through the same
 * channel), and handing it back.
 */
export const inboxRoutes =
  (deps: InboxRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);
    const channels = channelQueries(deps.readDb);
    const run = createCommandRunner(deps);

    app.get(
      '/inbox',
      {
        schema: {
          summary: "One inbox: the owner's conversations from every channel, newest activity first",
          querystring: InboxQuerySchema,
          response: { 200: InboxSchema },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        const { assistant_id, channel, limit } = request.query;
        let assistantId: string | undefined;
        if (assistant_id !== undefined) {
          const assistant = await assistants.findOwned(account.id, assistant_id);
          if (!assistant) throw new ApiError(404, messages.assistantNotFound);
          assistantId = assistant.id;
        }
        const rows = await channels.inbox(account.id, { assistantId, channel, limit });
        return {
          data: rows.map((row) => ({
            thread_id: row.thread_id,
            assistant_id: row.assistant_numeric_id,
            assistant_name: row.assistant_name,
            channel: row.channel,
            title: row.title,
            contact_name: row.contact_name,
            taken_over: row.taken_over,
            last_message: row.last_message,
            last_message_at: row.last_message_at,
            created_at: row.created_at,
          })),
        };
      },
    );

    for (const [path, type, summary] of [
      ['takeover', 'TakeOverThread', "Take a customer's conversation over: the assistant stops answering it"],
      ['handback', 'HandBackThread', 'Hand the conversation back: the assistant answers again'],
    ] as const) {
      app.post(
        `/threads/:threadId/${path}`,
        {
          schema: {
            summary,
            params: ThreadParams,
            response: { 200: TakeoverStateSchema, 404: ErrorBodySchema, 409: ErrorBodySchema },
          },
        },
        async (request) => {
          const account = requireAccount(request);
          const threadId = threadIdOf(request.params.threadId);
          const { state } = await run(request, threadDecider, streamIds.thread(threadId), {
            type,
            data: { ownerId: account.id },
          });
          if (state.status !== 'open') throw new ApiError(404, chatMessages.threadNotFound);
          return { thread_id: threadId, taken_over: state.takenOver, channel: state.thread.channel };
        },
      );
    }

    app.post(
      '/threads/:threadId/owner-reply',
      {
        schema: {
          summary:
            'Reply as the owner in a conversation you took over (sent through its channel: Telegram, WhatsApp, Instagram, or shown in the widget/share chat)',
          params: ThreadParams,
          body: OwnerReplyBodySchema,
          response: { 201: OwnerReplySchema, 404: ErrorBodySchema, 409: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const threadId = threadIdOf(request.params.threadId);
        const messageId = `msg_${randomBytes(12).toString('hex')}`;
        const text = request.body.content;
        const now = deps.clock();
        await run(request, threadDecider, streamIds.thread(threadId), {
          type: 'PostOwnerReply',
          data: { ownerId: account.id, messageId, text, language: detectLanguage(text) },
        });
        return reply.status(201).send({
          id: messageId,
          thread_id: threadId,
          role: 'assistant' as const,
          author: 'owner' as const,
          text,
          created_at: Math.floor(now.getTime() / 1000),
        });
      },
    );
  };
