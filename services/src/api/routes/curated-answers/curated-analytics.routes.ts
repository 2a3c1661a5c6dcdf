import {
  CuratedAnalyticsQuerySchema,
  CuratedAnalyticsSchema,
  messages,
  successEnvelope,
  type CuratedAnalytics,
} from '@kesher/contracts';
import { answerSourceQueries } from '@kesher/projections/analytics/answer-sources/answer-sources.queries';
import { lastDays, ownerScope } from '@kesher/projections/analytics/shared/owner-scope';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createAssistantDirectory } from '../../../analytics/index.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

export interface CuratedAnalyticsRoutesDeps {
  readDb: Sql;
  clock: () => Date;
}

/** How many Q&A the dashboard ranks. */
const TOP_QUESTIONS = 10;

/**
 * Curated answers in analytics (issue 26 item 4): the analytics page's card and the Q&A tab's list of
 * questions answered with no source, from the answer-sources read model. The owner's own figures only;
 * another owner's assistant id answers 404 like a missing one.
 */
export const curatedAnalyticsRoutes =
  (deps: CuratedAnalyticsRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = createAssistantDirectory(deps.readDb);
    const answers = answerSourceQueries(deps.readDb);

    app.get(
      '/analytics/curated-answers',
      {
        schema: {
          summary:
            "Answers from the owner's Q&A over the last `days` days (default 30), the Q&A that answered most, and visitors' questions answered with no source, newest first",
          querystring: CuratedAnalyticsQuerySchema,
          response: { 200: successEnvelope(CuratedAnalyticsSchema) },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        const scope = ownerScope(account.id);
        let assistantId: string | null = null;
        if (request.query.assistant_id !== undefined) {
          const owned = await assistants.byNumericId(scope, request.query.assistant_id);
          if (!owned) throw new ApiError(404, messages.assistantNotFound);
          assistantId = owned.id;
        }
        const range = lastDays(deps.clock(), request.query.days);
        // The owner's assistants now: a deleted one's questions cannot become a Q&A, so they are not listed.
        const { rows: current } = await deps.readDb.query<{ id: string }>(
          `SELECT id FROM assistants WHERE owner_id = $1`,
          [account.id],
        );
        const [hits, unanswered] = await Promise.all([
          answers.curatedHits(scope, range, { assistantId, top: TOP_QUESTIONS }),
          answers.unanswered(scope, range, {
            assistantId,
            limit: request.query.limit,
            among: current.map((row) => row.id),
          }),
        ]);
        const named = await assistants.byIds([
          ...hits.top.map((q) => q.assistantId),
          ...unanswered.list.map((q) => q.assistantId),
        ]);
        const data: CuratedAnalytics = {
          period: { days: request.query.days, start_date: range.from, end_date: range.to },
          answers: hits.answers,
          curated_answers: hits.curated,
          curated_share: hits.answers === 0 ? null : Math.round((hits.curated / hits.answers) * 1000) / 10,
          unsourced_answers: hits.unsourced,
          top_questions: hits.top.flatMap((q) => {
            const assistant = named.get(q.assistantId);
            return assistant
              ? [
                  {
                    qa_id: q.qaId,
                    question: q.question,
                    hits: q.hits,
                    assistant_id: assistant.numericId,
                    assistant_name: assistant.name,
                  },
                ]
              : [];
          }),
          unanswered: {
            total: unanswered.total,
            questions: unanswered.questions,
            items: unanswered.list.flatMap((q) => {
              const assistant = named.get(q.assistantId);
              return assistant
                ? [
                    {
                      question: q.question,
                      times: q.times,
                      last_asked_at: q.lastAskedAt.toISOString(),
                      thread_id: q.threadId,
                      assistant_id: assistant.numericId,
                      assistant_name: assistant.name,
                    },
                  ]
                : [];
            }),
          },
        };
        return { status: 'success' as const, data };
      },
    );
  };
