import { usageMonth, type AllPosition } from '@kesher/contracts';
import type { UsageQueries } from '@kesher/projections/usage/usage.queries';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import type { SqlExecutor } from '../platform/sql/sql.port.js';
import type { PlanOf } from './plan-book.js';

export interface QuotaCheck {
  allowed: boolean;
  used: number;
  limit: number;
}

/** The usage read model's name: its checkpoint says which requested runs its counts include. */
const USAGE_PROJECTION = 'usage';

/**
 * The plan's monthly message limit: the messages an owner's assistants answered this calendar month
 * (UTC; visitors' included) against the owner's plan. Only answers count (issue 21 item 12): a message
 * refused, or whose run failed or expired, costs nothing; a run being answered holds its place until it
 * settles. It reads the usage read model, so two runs requested at the same instant may both pass at the
 * last free place: the limit can be exceeded by the runs requested at that moment, never by more. (A hard
 * cap would need one stream per owner and month that every run appends to, serialising each owner's
 * chat; not worth it for a monthly quota.)
 *
 * Runs are requested before the usage read model has seen them (chat turns do not wait for the
 * projector), so each accepted run holds a place in Postgres (`quota_holds`, by the position of its
 * request in the log) until the read model's checkpoint passes it: every API process sees every other's
 * holds, so N replicas do not each let the owner's last places through. Far from the limit, the read
 * model's count plus the holds above its checkpoint is enough; only when that sum reaches the limit does
 * the check wait for the read model and count again (the two reads are not one snapshot, so the sum can
 * only count a run twice, never miss one).
 */
export function createMessageQuota(deps: {
  planOf: PlanOf;
  usage: Pick<UsageQueries, 'quotaUsed'>;
  sql: SqlExecutor;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  /**
   * When the usage read model lives in the same database as the holds: its count as an SQL expression over
   * the owner and month parameters (usage.queries.ts `quotaUsedExpression`), read in the holds' statement.
   */
  usageExpression?: (owner: string, month: string) => string;
}) {
  const count = (ownerId: string) => deps.usage.quotaUsed(ownerId, usageMonth(deps.clock()));

  /**
   * The owner's holds the read model does not count yet (those it counts are deleted on the way) and, with
   * `month`, the read model's count in the same statement: one snapshot, so a run the projector applies at
   * that moment is either counted or held, never both, never neither.
   */
  async function held(ownerId: string, month?: string): Promise<{ holds: number; counted?: number }> {
    const { rows } = await deps.sql.query<{ n: string | number; counted: string | number | null }>(
      `WITH c AS (SELECT commit_position, prepare_position FROM projection_checkpoints WHERE name = $2),
       gone AS (DELETE FROM quota_holds h USING c WHERE h.owner_id = $1
                  AND (h.commit_position, h.prepare_position) <= (c.commit_position, c.prepare_position) RETURNING h.commit_position, h.prepare_position)
       SELECT count(*) AS n, ${month === undefined ? 'NULL' : deps.usageExpression!('$1', '$3')} AS counted FROM quota_holds h WHERE h.owner_id = $1
         AND NOT EXISTS (SELECT 1 FROM gone g WHERE g.commit_position = h.commit_position AND g.prepare_position = h.prepare_position)`,
      month === undefined ? [ownerId, USAGE_PROJECTION] : [ownerId, USAGE_PROJECTION, month],
    );
    const row = rows[0];
    return { holds: Number(row?.n ?? 0), counted: row?.counted == null ? undefined : Number(row.counted) };
  }

  /** The newest position held for the owner, if any. */
  async function newestHold(ownerId: string): Promise<AllPosition | undefined> {
    const { rows } = await deps.sql.query<{ commit_position: string; prepare_position: string }>(
      `SELECT commit_position::text AS commit_position, prepare_position::text AS prepare_position FROM quota_holds
       WHERE owner_id = $1 ORDER BY commit_position DESC, prepare_position DESC LIMIT 1`,
      [ownerId],
    );
    const row = rows[0];
    return row && { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
  }

  async function settled(ownerId: string) {
    const newest = await newestHold(ownerId);
    if (newest) await deps.awaitReadModels(newest, ['RunRequested']);
  }

  return {
    async check(ownerId: string): Promise<QuotaCheck> {
      const [plan, first] = await Promise.all([
        deps.planOf(ownerId),
        held(ownerId, deps.usageExpression && usageMonth(deps.clock())),
      ]);
      const counted = first.counted ?? (await count(ownerId));
      const limit = plan.limits.max_messages_per_month;
      if (counted + first.holds < limit) return { allowed: true, used: counted, limit };
      await settled(ownerId);
      // Holds first, then the count: a run the projector applies in between is counted twice, never missed.
      const stillHeld = (await held(ownerId)).holds;
      const used = (await count(ownerId)) + stillHeld;
      return { allowed: used < limit, used, limit };
    },
    /** A run was requested of one of `ownerId`'s assistants; its event is at `position`. */
    async accepted(ownerId: string, position: AllPosition) {
      await deps.sql.query(
        `INSERT INTO quota_holds (owner_id, commit_position, prepare_position) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [ownerId, position.commit.toString(), position.prepare.toString()],
      );
    },
    /** Read-your-writes for the owner's usage figures: waits until the count includes what was accepted. */
    settled,
  };
}

export type MessageQuota = ReturnType<typeof createMessageQuota>;
