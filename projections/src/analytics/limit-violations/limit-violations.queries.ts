import type { LimitKind } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import { num, rangeFilter, type DayRange, type OwnerScope } from '../shared/owner-scope.js';

export interface ViolationRow {
  id: string;
  ownerId: string;
  kind: LimitKind;
  limit: number;
  used: number;
  requested: number | null;
  assistantId: string | null;
  refused: 'owner' | 'visitor';
  occurredAt: Date;
}

export function limitViolationQueries(db: Queryable) {
  return {
    /** The newest refusals of the range (at most `limit`), optionally of one kind. */
    async list(
      scope: OwnerScope,
      range: DayRange,
      options: { kind?: LimitKind; limit: number },
    ): Promise<ViolationRow[]> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, null, params);
      params.push(`${range.from}T00:00:00Z`, `${range.to}T00:00:00Z`);
      let sql = `SELECT violation_id, owner_id, kind, limit_value, used, requested, assistant_id, refused, occurred_at FROM analytics_limit_violations
        WHERE ${where} AND occurred_at >= $${params.length - 1}::timestamptz AND occurred_at < $${params.length}::timestamptz + interval '1 day'`;
      if (options.kind) {
        params.push(options.kind);
        sql += ` AND kind = $${params.length}`;
      }
      params.push(options.limit);
      sql += ` ORDER BY occurred_at DESC, violation_id LIMIT $${params.length}`;
      const { rows } = await db.query<{
        violation_id: string;
        owner_id: string;
        kind: LimitKind;
        limit_value: unknown;
        used: unknown;
        requested: unknown;
        assistant_id: string | null;
        refused: 'owner' | 'visitor';
        occurred_at: Date;
      }>(sql, params);
      return rows.map((row) => ({
        id: row.violation_id,
        ownerId: row.owner_id,
        kind: row.kind,
        limit: num(row.limit_value),
        used: num(row.used),
        requested: row.requested == null ? null : num(row.requested),
        assistantId: row.assistant_id,
        refused: row.refused,
        occurredAt: new Date(row.occurred_at),
      }));
    },

    /** Refusals per kind over the range. */
    async perKind(scope: OwnerScope, range: DayRange): Promise<{ kind: LimitKind; count: number }[]> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params);
      const { rows } = await db.query<{ kind: LimitKind; n: unknown }>(
        `SELECT kind, sum(violations) AS n FROM analytics_limit_violations_daily WHERE ${where} GROUP BY kind ORDER BY 2 DESC, kind`,
        params,
      );
      return rows.map((row) => ({ kind: row.kind, count: num(row.n) }));
    },

    /** Refusals per day of the range (the days without any are absent). */
    async perDay(scope: OwnerScope, range: DayRange): Promise<Map<string, number>> {
      const params: unknown[] = [];
      const where = rangeFilter(scope, range, params);
      const { rows } = await db.query<{ day: string; n: unknown }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(violations) AS n FROM analytics_limit_violations_daily WHERE ${where} GROUP BY day`,
        params,
      );
      return new Map(rows.map((row) => [row.day, num(row.n)]));
    },
  };
}

export type LimitViolationQueries = ReturnType<typeof limitViolationQueries>;
