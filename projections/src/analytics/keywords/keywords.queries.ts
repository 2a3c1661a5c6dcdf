import type { Queryable } from '@kesher/contracts/ports/projection';
import { num, rangeFilter, type DayRange, type OwnerScope } from '../shared/owner-scope.js';
import { mergeForms, type MergedKeyword } from './keyword-extraction.js';
import type { KeywordSource } from './keywords.projection.js';

/**
 * The busiest keywords read before Hebrew forms are merged (see mergeForms): forms can only meet among
 * these, so a form in the long tail beyond them is not added to its word. Ample for a top 5 or 10.
 */
const CANDIDATES = 500;

export interface KeywordRanking {
  keywords: MergedKeyword[];
  /** Every mention in the range, listed or not. */
  totalMentions: number;
}

export function keywordQueries(db: Queryable) {
  async function top(
    scope: OwnerScope,
    source: KeywordSource,
    range: DayRange,
    limit: number,
    assistantId?: string | null,
  ): Promise<KeywordRanking> {
    const params: unknown[] = [];
    const where = rangeFilter(scope, range, params, { assistantId });
    params.push(source, Math.max(CANDIDATES, limit * 20));
    const sourceParam = `$${params.length - 1}`;
    const { rows } = await db.query<{ keyword: string; label: string; mentions: unknown; total: unknown }>(
      `WITH ranked AS (
         SELECT keyword, max(label) AS label, sum(mentions) AS mentions FROM analytics_keywords_daily
         WHERE ${where} AND source = ${sourceParam} GROUP BY keyword
       )
       SELECT keyword, label, mentions, sum(mentions) OVER () AS total FROM ranked ORDER BY mentions DESC, keyword LIMIT $${params.length}`,
      params,
    );
    const totalMentions = num(rows[0]?.total);
    const keywords = mergeForms(
      rows.map((row) => ({ key: row.keyword, label: row.label, count: num(row.mentions) })),
    ).slice(0, limit);
    return { keywords, totalMentions };
  }

  return {
    top,

    /** The top keywords' mentions per day of the range (the days without any are absent). */
    async trends(
      scope: OwnerScope,
      source: KeywordSource,
      range: DayRange,
      limit: number,
      assistantId?: string | null,
    ) {
      const { keywords } = await top(scope, source, range, limit, assistantId);
      const groupOf = new Map(
        keywords.flatMap((keyword) => keyword.members.map((member) => [member, keyword.key] as const)),
      );
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params, { assistantId });
      params.push(source, [...groupOf.keys()]);
      const { rows } = groupOf.size
        ? await db.query<{ day: string; keyword: string; mentions: unknown }>(
            `SELECT to_char(day, 'YYYY-MM-DD') AS day, keyword, sum(mentions) AS mentions FROM analytics_keywords_daily
             WHERE ${where} AND source = $${params.length - 1} AND keyword = ANY($${params.length}::text[]) GROUP BY day, keyword`,
            params,
          )
        : { rows: [] };
      const perDay = new Map<string, Map<string, number>>(keywords.map((keyword) => [keyword.key, new Map()]));
      for (const row of rows) {
        const days = perDay.get(groupOf.get(row.keyword)!)!;
        days.set(row.day, (days.get(row.day) ?? 0) + num(row.mentions));
      }
      return keywords.map((keyword) => ({ ...keyword, perDay: perDay.get(keyword.key)! }));
    },
  };
}

export type KeywordQueries = ReturnType<typeof keywordQueries>;
