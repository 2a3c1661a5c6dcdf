import type { Queryable } from '@kesher/contracts/ports/projection';
import { num, rangeFilter, type DayRange, type OwnerScope } from '../shared/owner-scope.js';

export interface ActivityFigures {
  conversations: number;
  queries: number;
  queriesHe: number;
  queriesEn: number;
  queriesOther: number;
  answers: number;
  trackedQueries: number;
  feedback: number;
  runsCompleted: number;
  runsFailed: number;
  runsExpired: number;
  promptTokens: number;
  completionTokens: number;
}

const SUMS = `coalesce(sum(conversations), 0) AS conversations, coalesce(sum(queries), 0) AS queries, coalesce(sum(queries_he), 0) AS queries_he,
  coalesce(sum(queries_en), 0) AS queries_en, coalesce(sum(queries_other), 0) AS queries_other, coalesce(sum(answers), 0) AS answers,
  coalesce(sum(tracked_queries), 0) AS tracked_queries, coalesce(sum(feedback), 0) AS feedback, coalesce(sum(runs_completed), 0) AS runs_completed,
  coalesce(sum(runs_failed), 0) AS runs_failed, coalesce(sum(runs_expired), 0) AS runs_expired, coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
  coalesce(sum(completion_tokens), 0) AS completion_tokens`;

type SumRow = Record<string, unknown>;
const figures = (row: SumRow | undefined): ActivityFigures => ({
  conversations: num(row?.conversations),
  queries: num(row?.queries),
  queriesHe: num(row?.queries_he),
  queriesEn: num(row?.queries_en),
  queriesOther: num(row?.queries_other),
  answers: num(row?.answers),
  trackedQueries: num(row?.tracked_queries),
  feedback: num(row?.feedback),
  runsCompleted: num(row?.runs_completed),
  runsFailed: num(row?.runs_failed),
  runsExpired: num(row?.runs_expired),
  promptTokens: num(row?.prompt_tokens),
  completionTokens: num(row?.completion_tokens),
});

export interface LiveCounters {
  ownerId: string;
  conversations: number;
  messages: number;
  feedback: number;
}

export function dailyActivityQueries(db: Queryable) {
  return {
    /** The range's figures summed (one assistant's, or all of the scope's). */
    async totals(scope: OwnerScope, range: DayRange, assistantId?: string | null): Promise<ActivityFigures> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params, { assistantId });
      const { rows } = await db.query<SumRow>(`SELECT ${SUMS} FROM analytics_daily_activity WHERE ${where}`, params);
      return figures(rows[0]);
    },

    /**
     * The range's rows (day × assistant × channel) summed four ways at once — totals, per day, per channel,
     * per assistant — from one read: what the dashboard needs, for the price of one query.
     */
    async breakdown(scope: OwnerScope, range: DayRange, assistantId?: string | null) {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params, { assistantId });
      const { rows } = await db.query<SumRow & { day: string; assistant_id: string; channel: string }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, assistant_id, channel, ${SUMS} FROM analytics_daily_activity WHERE ${where} GROUP BY day, assistant_id, channel`,
        params,
      );
      const totals = figures(undefined);
      const perDay = new Map<string, ActivityFigures>();
      const perChannel = new Map<string, ActivityFigures>();
      const perAssistant = new Map<string, ActivityFigures>();
      const into = (map: Map<string, ActivityFigures>, key: string) => {
        let found = map.get(key);
        if (!found) map.set(key, (found = figures(undefined)));
        return found;
      };
      for (const row of rows) {
        const f = figures(row);
        for (const sum of [
          totals,
          into(perDay, row.day),
          into(perChannel, row.channel),
          into(perAssistant, row.assistant_id),
        ]) {
          for (const name of Object.keys(f) as (keyof ActivityFigures)[]) sum[name] += f[name];
        }
      }
      const busiest = <T extends { queries: number; trackedQueries: number }>(a: [string, T], b: [string, T]) =>
        b[1].queries + b[1].trackedQueries - (a[1].queries + a[1].trackedQueries) || a[0].localeCompare(b[0]);
      return {
        totals,
        perDay,
        perChannel: [...perChannel].sort(busiest).map(([channel, f]) => ({
          channel,
          conversations: f.conversations,
          queries: f.queries,
          trackedQueries: f.trackedQueries,
        })),
        perAssistant: [...perAssistant].sort(busiest).map(([assistantId, f]) => ({ assistantId, ...f })),
      };
    },

    /** The range's figures per day that has any (the caller fills the other days with zeros). */
    async perDay(
      scope: OwnerScope,
      range: DayRange,
      assistantId?: string | null,
    ): Promise<Map<string, ActivityFigures>> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params, { assistantId });
      const { rows } = await db.query<SumRow & { day: string }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, ${SUMS} FROM analytics_daily_activity WHERE ${where} GROUP BY day`,
        params,
      );
      return new Map(rows.map((row) => [row.day, figures(row)]));
    },

    async perChannel(
      scope: OwnerScope,
      range: DayRange,
      assistantId?: string | null,
    ): Promise<{ channel: string; conversations: number; queries: number; trackedQueries: number }[]> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params, { assistantId });
      const { rows } = await db.query<SumRow & { channel: string }>(
        `SELECT channel, ${SUMS} FROM analytics_daily_activity WHERE ${where} GROUP BY channel ORDER BY sum(queries) + sum(tracked_queries) DESC, channel`,
        params,
      );
      return rows.map((row) => ({
        channel: row.channel,
        conversations: num(row.conversations),
        queries: num(row.queries),
        trackedQueries: num(row.tracked_queries),
      }));
    },

    /** Per assistant (internal ids; '' for tracked queries without one), busiest first. */
    async perAssistant(scope: OwnerScope, range: DayRange): Promise<(ActivityFigures & { assistantId: string })[]> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params);
      const { rows } = await db.query<SumRow & { assistant_id: string }>(
        `SELECT assistant_id, ${SUMS} FROM analytics_daily_activity WHERE ${where} GROUP BY assistant_id ORDER BY sum(queries) + sum(tracked_queries) DESC, assistant_id`,
        params,
      );
      return rows.map((row) => ({ assistantId: row.assistant_id, ...figures(row) }));
    },

    /** People who wrote in the range, and those among them who wrote for the first time in it (ranges end today). */
    async people(scope: OwnerScope, range: DayRange): Promise<{ active: number; new: number }> {
      const params: unknown[] = [];
      const owner = rangeFilter(scope, null, params);
      params.push(range.from);
      const { rows } = await db.query<{ active: unknown; fresh: unknown }>(
        `SELECT count(*) FILTER (WHERE last_day >= $${params.length}::date) AS active, count(*) FILTER (WHERE first_day >= $${params.length}::date) AS fresh
         FROM analytics_participants WHERE ${owner} AND last_day >= $${params.length}::date`,
        params,
      );
      return { active: num(rows[0]?.active), new: num(rows[0]?.fresh) };
    },

    /** All-time totals of these owners (the live counters); owners with nothing yet are absent. */
    async liveCounters(ownerIds: readonly string[]): Promise<LiveCounters[]> {
      if (ownerIds.length === 0) return [];
      const { rows } = await db.query<{
        owner_id: string;
        conversations: unknown;
        messages: unknown;
        feedback: unknown;
      }>(
        `SELECT owner_id, conversations, messages, feedback FROM analytics_owner_totals WHERE owner_id = ANY($1::text[])`,
        [ownerIds],
      );
      return rows.map((row) => ({
        ownerId: row.owner_id,
        conversations: num(row.conversations),
        messages: num(row.messages),
        feedback: num(row.feedback),
      }));
    },

    /** Every owner's totals summed (an operator's live counters). */
    async liveCountersOfAll(): Promise<Omit<LiveCounters, 'ownerId'>> {
      const { rows } = await db.query<{ conversations: unknown; messages: unknown; feedback: unknown }>(
        `SELECT coalesce(sum(conversations), 0) AS conversations, coalesce(sum(messages), 0) AS messages, coalesce(sum(feedback), 0) AS feedback FROM analytics_owner_totals`,
      );
      return {
        conversations: num(rows[0]?.conversations),
        messages: num(rows[0]?.messages),
        feedback: num(rows[0]?.feedback),
      };
    },
  };
}

export type DailyActivityQueries = ReturnType<typeof dailyActivityQueries>;
