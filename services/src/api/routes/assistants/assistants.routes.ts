import { randomInt, randomUUID } from 'node:crypto';
import {
  AssistantSchema,
  CreateAssistantBodySchema,
  CreateAssistantResponseSchema,
  messages,
  NumericIdParamSchema,
  streamIds,
  UpdateAssistantBodySchema,
  positionToString,
  type AllPosition,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { knowledgeQueries } from '@kesher/projections/knowledge/knowledge.queries';
import { threadQueries } from '@kesher/projections/threads/threads.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAssistantErasure } from '../../../assistants/index.js';
import { assertValidProfile, assistantDecider, fileSlotsOf } from '../../../domain/assistant/assistant.decider.js';
import { createHolding, type PlanAllowances } from '../../../plans/index.js';
import type { CommandHandler } from '../../../platform/commands/command-handler.js';
import type { EventStore } from '../../../platform/event-store/event-store.port.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { commandContext, createCommandRunner } from '../../command-runner.js';
import { responseSerializerCompiler } from '../../plugins/response-serializer.js';
import { createVersionedCache } from '../../versioned-cache.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { changesFromUpdate, profileFromCreate, toAssistantDto } from './assistant.mapper.js';
import type { AwaitReadModels } from '../../../platform/projections/read-model-progress.js';

export interface AssistantRoutesDeps {
  handle: CommandHandler;
  readDb: Sql;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  /** The assistants read model's current checkpoint; keys the list cache. */
  assistantsVersion: () => Promise<AllPosition | undefined> | AllPosition | undefined;
  /** The plan's max_assistants (and, on delete, the assistant's file slots); see plans/plan-allowances.ts. */
  allowances: Pick<PlanAllowances, 'reserveAssistant' | 'releaseAssistants'>;
  /** Deleting an assistant deletes its files and conversations (tombstoning uploads still in flight). */
  eventStore: EventStore;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** `asst_` + 24 letters or digits (spec §3), from a cryptographic source. */
export const newExternalAssistantId = () =>
  `asst_${Array.from({ length: 24 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('')}`;

export const assistantRoutes =
  (deps: AssistantRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const queries = assistantQueries(deps.readDb);
    const run = createCommandRunner(deps);
    const knowledge = knowledgeQueries(deps.readDb);
    const threads = threadQueries(deps.readDb);
    const erase = createAssistantErasure({
      handle: deps.handle,
      eventStore: deps.eventStore,
      awaitReadModels: deps.awaitReadModels,
      filesOf: async (ownerId, assistantId) => (await knowledge.listFiles(ownerId, assistantId)).map((file) => file.id),
      threadsOf: async (ownerId, assistantId) =>
        (await threads.threadsOfAssistant(ownerId, assistantId)).map((thread) => thread.id),
    });

    async function owned(request: FastifyRequest, numericId: number) {
      const account = requireAccount(request);
      const row = await queries.findOwned(account.id, numericId);
      // Another owner's assistant answers exactly like a missing one.
      if (!row) throw new ApiError(404, messages.assistantNotFound);
      return { account, row };
    }

    app.post(
      '/assistants/',
      {
        schema: {
          summary:
            'Create an assistant (403 when the plan\'s max_assistants are in use: "You have reached your plan\'s limit of {n} assistant(s)…")',
          body: CreateAssistantBodySchema,
          response: { 201: CreateAssistantResponseSchema },
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const { rows } = await deps.readDb.query<{ id: string }>(`SELECT nextval('assistant_numeric_ids')::text AS id`);
        const numericId = Number(rows[0]!.id);
        const externalId = newExternalAssistantId();
        const profile = profileFromCreate(request.body);
        // A refused profile must not take the plan's last slot, even for a moment.
        assertValidProfile(profile);
        const context = commandContext(request, deps.clock);
        // A create at the limit may take this one's slot for a crashed create's: it then runs again under a new id (plans/plan-allowances.ts).
        let limit = 0;
        await createHolding(
          async () => {
            const assistantId = randomUUID();
            ({ limit } = await deps.allowances.reserveAssistant(context, account.id, assistantId));
            try {
              await run(request, assistantDecider, streamIds.assistant(assistantId), {
                type: 'CreateAssistant',
                data: { assistantId, numericId, externalId, ownerId: account.id, profile },
              });
            } catch (error) {
              await deps.allowances
                .releaseAssistants(context, account.id, [assistantId])
                .catch((e: unknown) => request.log.warn({ err: e }, 'assistant slot not given back'));
              throw error;
            }
          },
          () => new ApiError(403, messages.assistantLimitReached(limit)),
        );
        // Custom functions are not supported yet; the spec's response reports them as failed.
        const failed = (request.body.functions ?? []).map((f) => f.name);
        return reply.status(201).send({
          assistant_id: numericId,
          openai_assistant_id: externalId,
          ...(failed.length ? { failed_functions: failed } : {}),
        });
      },
    );

    // The dashboard's hottest read: the rendered list is reused until the read model moves.
    const listCache = createVersionedCache<string>();
    const serializeList = responseSerializerCompiler({
      schema: z.array(AssistantSchema),
      method: 'GET',
      url: '/assistants/',
      httpStatus: '200',
    }) as (value: unknown) => string;
    app.get(
      '/assistants/',
      { schema: { summary: "The signed-in owner's assistants", response: { 200: z.array(AssistantSchema) } } },
      async (request, reply) => {
        const account = requireAccount(request);
        const position = await deps.assistantsVersion();
        const version = position ? positionToString(position) : '';
        let body = position && listCache.get(account.id, version);
        if (!body) {
          body = serializeList((await queries.listByOwner(account.id)).map(toAssistantDto));
          if (position) listCache.set(account.id, version, body);
        }
        // `body` is already the JSON the route schema describes; send it as is (the typed reply expects the object form).
        return reply
          .type('application/json; charset=utf-8')
          .serializer((payload: unknown) => payload as string)
          .send(body as never);
      },
    );

    app.get(
      '/assistants/:id',
      { schema: { summary: 'One assistant', params: NumericIdParamSchema, response: { 200: AssistantSchema } } },
      async (request) => toAssistantDto((await owned(request, request.params.id)).row),
    );

    app.put(
      '/assistants/:id',
      {
        schema: {
          summary: 'Change an assistant',
          params: NumericIdParamSchema,
          body: UpdateAssistantBodySchema,
          response: { 200: AssistantSchema },
        },
      },
      async (request) => {
        const { account, row } = await owned(request, request.params.id);
        await run(request, assistantDecider, streamIds.assistant(row.id), {
          type: 'UpdateAssistant',
          data: { assistantId: row.id, ownerId: account.id, changes: changesFromUpdate(request.body) },
        });
        return toAssistantDto((await queries.findOwned(account.id, request.params.id)) ?? row);
      },
    );

    app.delete(
      '/assistants/:id',
      {
        schema: {
          summary:
            "Delete an assistant with its knowledge files (their bytes freed), its conversations (visitors' too) and its share link",
          params: NumericIdParamSchema,
          response: { 200: z.object({ detail: z.string(), id: z.number() }) },
        },
      },
      async (request) => {
        const { account, row } = await owned(request, request.params.id);
        const { state } = await run(request, assistantDecider, streamIds.assistant(row.id), {
          type: 'DeleteAssistant',
          data: { assistantId: row.id, ownerId: account.id },
        });
        const context = commandContext(request, deps.clock);
        await deps.allowances.releaseAssistants(context, account.id, [row.id]);
        await erase(context, {
          ownerId: account.id,
          assistantId: row.id,
          fileSlots: fileSlotsOf(state),
        });
        return { detail: 'Assistant deleted', id: row.numeric_id };
      },
    );
  };
