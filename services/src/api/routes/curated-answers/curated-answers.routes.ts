import { randomBytes } from 'node:crypto';
import {
  curatedMessages,
  messages,
  parseCuratedCsv,
  toCuratedCsv,
  NumericIdParamSchema,
  QaBodySchema,
  QaImportBodySchema,
  QaImportResultSchema,
  QaListSchema,
  QaParamsSchema,
  QaSchema,
  streamIds,
  type Qa,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { curatedAnswerQueries } from '@kesher/projections/curated-answers/curated-answers.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assistantDecider } from '../../../domain/assistant/assistant.decider.js';

import type { CommandHandler } from '../../../platform/commands/command-handler.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { curatedAnswerLimit, type PlanOf } from '../../../plans/index.js';
import { ApiError } from '../../api-error.js';
import { createCommandRunner } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { curatedAnalyticsRoutes } from './curated-analytics.routes.js';
import type { AwaitReadModels } from '../../../platform/projections/read-model-progress.js';

export interface CuratedAnswerRoutesDeps {
  handle: CommandHandler;
  readDb: Sql;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  /** The plan in force, for its count of Q&A per assistant (plans/curated-answer-limits.ts). */
  planOf: PlanOf;
}

export const newQaId = () => `qa_${randomBytes(12).toString('hex')}`;

const SearchQuerySchema = z.object({ search: z.string().max(200).optional() });

/**
 * Curated answers (issue 26): the owner's Q&A of one assistant — list (with search), add (also from
 * "Improve this answer", naming the conversation), edit, delete, and CSV export and import. Every call
 * is the owner's: another owner's assistant or Q&A answers 404 exactly like a missing one.
 */
export const curatedAnswerRoutes =
  (deps: CuratedAnswerRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);
    const queries = curatedAnswerQueries(deps.readDb);
    const run = createCommandRunner(deps);
    // The Q&A's analytics (issue 26 item 4) come with the Q&A: GET /analytics/curated-answers.
    await plain.register(curatedAnalyticsRoutes(deps));

    async function owned(request: FastifyRequest, numericId: number) {
      const account = requireAccount(request);
      const row = await assistants.findOwned(account.id, numericId);
      if (!row) throw new ApiError(404, messages.assistantNotFound);
      return { ownerId: account.id, assistantId: row.id };
    }

    /** The saved Q&A as the read model has it; as written when the read model is still behind. */
    async function saved(
      ownerId: string,
      assistantId: string,
      qaId: string,
      written: { question: string; answer: string },
    ): Promise<Qa> {
      const row = await queries.find(ownerId, qaId, deps.clock());
      if (row && row.assistant_id === assistantId)
        return {
          qa_id: row.qa_id,
          question: row.question,
          answer: row.answer,
          hits_30d: row.hits_30d,
          created_at: row.created_at,
        };
      return {
        qa_id: qaId,
        question: written.question.trim(),
        answer: written.answer.trim(),
        hits_30d: 0,
        created_at: deps.clock().toISOString(),
      };
    }

    async function curate(
      request: FastifyRequest,
      numericId: number,
      answers: { qaId: string; question: string; answer: string; sourceThreadId?: string }[],
    ) {
      const { ownerId, assistantId } = await owned(request, numericId);
      const limit = curatedAnswerLimit(await deps.planOf(ownerId));
      await run(request, assistantDecider, streamIds.assistant(assistantId), {
        type: 'CurateAnswers',
        data: { assistantId, ownerId, limit, answers },
      });
      return { ownerId, assistantId };
    }

    app.get(
      '/assistants/:id/qa',
      {
        schema: {
          summary:
            "The assistant's curated answers, oldest first, each with its answers in the last 30 days; `search` filters by question or answer",
          params: NumericIdParamSchema,
          querystring: SearchQuerySchema,
          response: { 200: QaListSchema },
        },
      },
      async (request) => {
        const { ownerId, assistantId } = await owned(request, request.params.id);
        const search = request.query.search?.trim().toLocaleLowerCase();
        const rows = await queries.list(ownerId, assistantId, deps.clock());
        return rows
          .filter(
            (row) =>
              !search ||
              row.question.toLocaleLowerCase().includes(search) ||
              row.answer.toLocaleLowerCase().includes(search),
          )
          .map((row) => ({
            qa_id: row.qa_id,
            question: row.question,
            answer: row.answer,
            hits_30d: row.hits_30d,
            created_at: row.created_at,
          }));
      },
    );

    app.post(
      '/assistants/:id/qa',
      {
        schema: {
          summary:
            'Add a curated answer ("Improve this answer" names the conversation in thread_id); it answers the question and its paraphrases at once',
          params: NumericIdParamSchema,
          body: QaBodySchema,
          response: { 200: QaSchema },
        },
      },
      async (request) => {
        const qaId = newQaId();
        const { question, answer, thread_id } = request.body;
        const { ownerId, assistantId } = await curate(request, request.params.id, [
          { qaId, question, answer, ...(thread_id ? { sourceThreadId: thread_id } : {}) },
        ]);
        return saved(ownerId, assistantId, qaId, request.body);
      },
    );

    app.put(
      '/assistants/:id/qa/:qa_id',
      {
        schema: {
          summary: 'Replace a curated question and answer',
          params: QaParamsSchema,
          body: QaBodySchema,
          response: { 200: QaSchema },
        },
      },
      async (request) => {
        const { ownerId, assistantId } = await owned(request, request.params.id);
        const { question, answer } = request.body;
        await run(request, assistantDecider, streamIds.assistant(assistantId), {
          type: 'EditCuratedAnswer',
          data: { assistantId, ownerId, qaId: request.params.qa_id, question, answer },
        });
        return saved(ownerId, assistantId, request.params.qa_id, request.body);
      },
    );

    app.delete(
      '/assistants/:id/qa/:qa_id',
      {
        schema: {
          summary: 'Delete a curated answer: it stops answering at once',
          params: QaParamsSchema,
          response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
        },
      },
      async (request) => {
        const { ownerId, assistantId } = await owned(request, request.params.id);
        await run(request, assistantDecider, streamIds.assistant(assistantId), {
          type: 'DeleteCuratedAnswer',
          data: { assistantId, ownerId, qaId: request.params.qa_id },
        });
        return { success: true as const, message: 'Question and answer deleted' };
      },
    );

    app.get(
      '/assistants/:id/qa/export',
      { schema: { summary: "The assistant's curated answers as CSV (question,answer)", params: NumericIdParamSchema } },
      async (request, reply) => {
        const { ownerId, assistantId } = await owned(request, request.params.id);
        const rows = await queries.list(ownerId, assistantId, deps.clock());
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="qa-${request.params.id}.csv"`)
          .send(toCuratedCsv(rows));
      },
    );

    app.post(
      '/assistants/:id/qa/import',
      {
        schema: {
          summary:
            'Add every row of a question,answer CSV as a curated answer: all of them, or none past the plan’s count',
          params: NumericIdParamSchema,
          body: QaImportBodySchema,
          response: { 200: QaImportResultSchema },
        },
      },
      async (request) => {
        const rows = parseCuratedCsv(request.body.csv);
        if (!rows) throw new ApiError(400, curatedMessages.badCsv);
        const { ownerId, assistantId } = await owned(request, request.params.id);
        const key = (row: { question: string; answer: string }) => `${row.question}\u0000${row.answer}`;
        const existing = new Set((await queries.list(ownerId, assistantId, deps.clock())).map(key));
        const fresh = rows.filter((row) => {
          if (existing.has(key(row))) return false;
          existing.add(key(row));
          return true;
        });
        if (fresh.length > 0)
          await curate(
            request,
            request.params.id,
            fresh.map((row) => ({ qaId: newQaId(), ...row })),
          );
        return { imported: fresh.length, skipped: rows.length - fresh.length };
      },
    );
  };
