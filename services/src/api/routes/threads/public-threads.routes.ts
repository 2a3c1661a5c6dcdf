import {
  chatMessages,
  CreatePublicRunBodySchema,
  CreatePublicThreadBodySchema,
  CreateThreadResponseSchema,
  FeedbackResponseSchema,
  MessageListSchema,
  MessageSchema,
  PostPublicMessageBodySchema,
  PublicFeedbackBodySchema,
  RunSchema,
  CreatedRunSchema,
  SessionQuerySchema,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError } from '../../api-error.js';
import { type Chatter, createChatService, hashSession, newSessionToken } from '../../../chat/index.js';
import { sendSse } from '../../sse.js';
import { titledEvents, withSourceTitles } from './source-titles.js';
import { callOf, lastEventIdOf, postRefusedSchema, RunParams, runIdOf, ThreadParams, threadIdOf } from './chat-http.js';
import type { ThreadRoutesDeps } from './threads.routes.js';
const visitor = (sessionToken: string): Chatter => ({ kind: 'visitor', sessionHash: hashSession(sessionToken) });

/**
 * Visitors' chat (spec §7 "Threads, public"): no sign-in. A thread starts only with the assistant's share
 * token, and every later call must carry the visitor's session token: a public thread is readable by
 * whoever holds that token and by nobody else.
 */
export const publicThreadRoutes =
  (deps: ThreadRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const chat = createChatService(deps);
    const assistants = assistantQueries(deps.readDb);
    // A malformed thread id is the spec's 400 THREAD_INVALID whatever else is wrong with the request: the
    // embed drops a stored conversation on it. Checked before the body, whose errors would be a 422.
    app.addHook('preValidation', async (request) => {
      const { threadId } = request.params as { threadId?: string };
      if (threadId !== undefined) threadIdOf(threadId);
    });

    app.post(
      '/threads/public',
      {
        schema: {
          summary: 'Public: start a conversation through a share link',
          body: CreatePublicThreadBodySchema,
          response: { 201: CreateThreadResponseSchema },
        },
      },
      async (request, reply) => {
        const assistant = await assistants.findShared(request.body.assistant_id, request.body.share_token);
        if (!assistant) throw new ApiError(404, chatMessages.invalidShareLink);
        const sessionToken = request.body.session_token ?? newSessionToken();
        const started = await chat.start(callOf(request), visitor(sessionToken), assistant, request.body.channel);
        return reply.status(201).send({ ...started, session_token: sessionToken });
      },
    );

    app.post(
      '/threads/public/:threadId/messages',
      {
        schema: {
          summary: 'Public: post a message',
          params: ThreadParams,
          body: PostPublicMessageBodySchema,
          response: { 201: MessageSchema, 403: postRefusedSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await chat.post(
              callOf(request),
              visitor(request.body.session_token),
              threadIdOf(request.params.threadId),
              request.body.content,
            ),
          ),
    );

    app.get(
      '/threads/public/:threadId/messages',
      {
        schema: {
          summary: "Public: a conversation's messages",
          params: ThreadParams,
          querystring: SessionQuerySchema,
          response: { 200: MessageListSchema },
        },
      },
      async (request) => {
        const list = await chat.messages(visitor(request.query.session_token), threadIdOf(request.params.threadId));
        return { ...list, data: await withSourceTitles(deps.readDb, list.data) };
      },
    );

    app.post(
      '/threads/public/:threadId/runs',
      {
        schema: {
          summary: 'Public: ask the assistant to answer (the message may come along as additional_messages)',
          params: ThreadParams,
          body: CreatePublicRunBodySchema,
          response: { 201: CreatedRunSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await chat.requestRun(
              callOf(request),
              visitor(request.body.session_token),
              threadIdOf(request.params.threadId),
              request.body.assistant_id,
              request.body.content,
            ),
          ),
    );

    app.get(
      '/threads/public/:threadId/runs/:runId',
      {
        schema: {
          summary: "Public: a run's status",
          params: RunParams,
          querystring: SessionQuerySchema,
          response: { 200: RunSchema },
        },
      },
      async (request) =>
        chat.run(
          visitor(request.query.session_token),
          threadIdOf(request.params.threadId),
          runIdOf(request.params.runId),
        ),
    );

    app.get(
      '/threads/public/:threadId/runs/:runId/stream',
      {
        schema: {
          summary: 'Public: the answer as server-sent events',
          params: RunParams,
          querystring: SessionQuerySchema,
          produces: ['text/event-stream'],
        },
      },
      async (request, reply) => {
        const events = await chat.followRun(
          visitor(request.query.session_token),
          threadIdOf(request.params.threadId),
          runIdOf(request.params.runId),
          {
            afterSeq: lastEventIdOf(request),
          },
        );
        await sendSse(request, reply, titledEvents(deps.readDb, events), { heartbeatMs: deps.sseHeartbeatMs });
      },
    );

    app.post(
      '/feedback/public',
      {
        schema: {
          summary: 'Public: like or dislike an answer',
          body: PublicFeedbackBodySchema,
          response: { 200: FeedbackResponseSchema },
        },
      },
      async (request) => chat.feedback(callOf(request), visitor(request.body.session_token), request.body),
    );
  };
