import {
  CreateRunBodySchema,
  CreateThreadBodySchema,
  CreateThreadResponseSchema,
  FeedbackBodySchema,
  FeedbackResponseSchema,
  MessageListSchema,
  MessageSchema,
  messages,
  NumericIdParamSchema,
  PostMessageBodySchema,
  RenameThreadBodySchema,
  RunSchema,
  CreatedRunSchema,
  ThreadSchema,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../api-error.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { type ChatServiceDeps, type Chatter, createChatService } from '../../../chat/index.js';
import { sendSse } from '../../sse.js';
import { titledEvents, withSourceTitles } from './source-titles.js';
import { callOf, lastEventIdOf, postRefusedSchema, RunParams, runIdOf, ThreadParams, threadIdOf } from './chat-http.js';

export interface ThreadRoutesDeps extends ChatServiceDeps {
  /** Quiet time after which a live answer's stream sends a heartbeat comment (default 15 s). */
  sseHeartbeatMs?: number;
}

/** Signed-in chat (spec §7 "Threads, signed in"), Chat History, and feedback. */
export const threadRoutes =
  (deps: ThreadRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const chat = createChatService(deps);
    const assistants = assistantQueries(deps.readDb);
    const owner = (request: FastifyRequest): Chatter => ({ kind: 'owner', ownerId: requireAccount(request).id });

    app.post(
      '/threads/',
      {
        schema: {
          summary: 'Start a conversation with one of your assistants',
          body: CreateThreadBodySchema,
          response: { 201: CreateThreadResponseSchema },
        },
      },
      async (request, reply) => {
        const chatter = owner(request);
        const assistant = await assistants.findOwned(requireAccount(request).id, request.body.assistant_id);
        if (!assistant) throw new ApiError(404, messages.assistantNotFound);
        return reply.status(201).send(await chat.start(callOf(request), chatter, assistant, 'app'));
      },
    );

    app.post(
      '/threads/:threadId/messages',
      {
        schema: {
          summary:
            "Post a message (100 words, ~400 tokens at most); a visitor's conversation is read-only for the owner (403)",
          params: ThreadParams,
          body: PostMessageBodySchema,
          response: { 201: MessageSchema, 403: postRefusedSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await chat.post(callOf(request), owner(request), threadIdOf(request.params.threadId), request.body.content),
          ),
    );

    app.get(
      '/threads/:threadId/messages',
      {
        schema: {
          summary: "A conversation's messages, oldest first",
          params: ThreadParams,
          response: { 200: MessageListSchema },
        },
      },
      async (request) => {
        const list = await chat.messages(owner(request), threadIdOf(request.params.threadId));
        return { ...list, data: await withSourceTitles(deps.readDb, list.data) };
      },
    );

    app.post(
      '/threads/:threadId/runs',
      {
        schema: {
          summary:
            "Ask the assistant to answer the latest message, or the message sent along as additional_messages (one call for the chat's send)",
          params: ThreadParams,
          body: CreateRunBodySchema,
          response: { 201: CreatedRunSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await chat.requestRun(
              callOf(request),
              owner(request),
              threadIdOf(request.params.threadId),
              request.body.assistant_id,
              request.body.content,
            ),
          ),
    );

    app.get(
      '/threads/:threadId/runs/:runId',
      {
        schema: {
          summary: "A run's status (poll until completed, failed or expired)",
          params: RunParams,
          response: { 200: RunSchema },
        },
      },
      async (request) => chat.run(owner(request), threadIdOf(request.params.threadId), runIdOf(request.params.runId)),
    );

    app.get(
      '/threads/:threadId/runs/:runId/stream',
      {
        schema: {
          summary:
            'The answer as server-sent events: delta (id = sequence, resumable with Last-Event-ID), then completed, failed or expired',
          params: RunParams,
          produces: ['text/event-stream'],
        },
      },
      async (request, reply) => {
        // The run's grant, issued with it, opens it with nothing read first; a missing, foreign or stale
        // one leaves the stream to the bearer token, as without it.
        const grant = request.headers['x-run-grant'];
        const granted =
          typeof grant === 'string'
            ? chat.followGranted(threadIdOf(request.params.threadId), runIdOf(request.params.runId), grant, {
                afterSeq: lastEventIdOf(request),
              })
            : undefined;
        const events =
          granted ??
          (await chat.followRun(owner(request), threadIdOf(request.params.threadId), runIdOf(request.params.runId), {
            afterSeq: lastEventIdOf(request),
          }));
        await sendSse(request, reply, titledEvents(deps.readDb, events), { heartbeatMs: deps.sseHeartbeatMs });
      },
    );

    app.get(
      '/threads/:threadId',
      {
        schema: {
          summary:
            "A conversation: the owner's own, or a visitor's with one of the owner's assistants (is_public: read-only, rename and delete allowed)",
          params: ThreadParams,
          response: { 200: ThreadSchema },
        },
      },
      async (request) => chat.describe(owner(request), threadIdOf(request.params.threadId)),
    );

    app.patch(
      '/threads/:threadId',
      {
        schema: {
          summary: 'Rename a conversation',
          params: ThreadParams,
          body: RenameThreadBodySchema,
          response: { 200: ThreadSchema },
        },
      },
      async (request) =>
        chat.rename(callOf(request), owner(request), threadIdOf(request.params.threadId), request.body.title),
    );

    app.delete(
      '/threads/:threadId',
      {
        schema: {
          summary: 'Delete a conversation',
          params: ThreadParams,
          response: { 200: z.object({ detail: z.string() }) },
        },
      },
      async (request) => chat.remove(callOf(request), owner(request), threadIdOf(request.params.threadId)),
    );

    app.get(
      '/assistants/:id/threads',
      {
        schema: {
          summary: "Chat History: an assistant's conversations, newest first (visitors' public ones included)",
          params: NumericIdParamSchema,
          response: { 200: z.array(ThreadSchema) },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        const assistant = await assistants.findOwned(account.id, request.params.id);
        if (!assistant) throw new ApiError(404, messages.assistantNotFound);
        return chat.listForAssistant(account.id, assistant);
      },
    );

    app.post(
      '/feedback',
      {
        schema: {
          summary: 'Like or dislike an answer (a second rating replaces the first)',
          body: FeedbackBodySchema,
          response: { 200: FeedbackResponseSchema },
        },
      },
      async (request) => chat.feedback(callOf(request), owner(request), request.body),
    );
  };
