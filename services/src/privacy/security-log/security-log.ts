import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '../../platform/sql/sql.port.js';

/**
 * What the owner's security log shows about their data: exports they downloaded and erasures of their
 * data or their customers' (a visitor deleting a conversation, retention, a `/forget` on a channel).
 * An entry names what happened, never the erased content itself: "a visitor deleted a conversation of
 * assistant 3", not its messages. Kept 12 months (spec part 2), then purged by the retention run.
 */
export type SecurityLogKind =
  'data_exported' | 'conversation_erased' | 'channel_contact_erased' | 'retention_run' | 'inactivity_warning';

export interface SecurityLogEntry {
  id: string;
  kind: SecurityLogKind;
  /** Who did it: `account:<id>`, `visitor`, `channel_customer`, `system:retention`. */
  actor: string;
  /** Ids and counts only (thread id, channel, how many conversations a retention run erased). */
  detail: Record<string, string | number | null>;
  at: string;
}

export function createSecurityLog(deps: { sql: SqlExecutor; clock: () => Date }) {
  return {
    async record(ownerId: string, entry: Pick<SecurityLogEntry, 'kind' | 'actor' | 'detail'>): Promise<void> {
      await deps.sql.query(
        `INSERT INTO privacy_security_log (id, owner_id, kind, actor, detail, at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [randomUUID(), ownerId, entry.kind, entry.actor, JSON.stringify(entry.detail), deps.clock().toISOString()],
      );
    },
    /** The owner's entries, newest first. */
    async list(ownerId: string, limit = 200): Promise<SecurityLogEntry[]> {
      const { rows } = await deps.sql.query<{
        id: string;
        kind: SecurityLogKind;
        actor: string;
        detail: SecurityLogEntry['detail'];
        at: Date | string;
      }>(
        `SELECT id, kind, actor, detail, at FROM privacy_security_log WHERE owner_id = $1 ORDER BY at DESC, id LIMIT $2`,
        [ownerId, limit],
      );
      return rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }));
    },
    /** Drops entries older than `before` (the retention run); answers how many. */
    async purgeBefore(before: Date): Promise<number> {
      const { rows } = await deps.sql.query<{ n: string }>(
        `WITH gone AS (DELETE FROM privacy_security_log WHERE at < $1 RETURNING 1) SELECT count(*)::text AS n FROM gone`,
        [before.toISOString()],
      );
      return Number(rows[0]?.n ?? 0);
    },
    /** An owner's whole log, when their account is erased. */
    async forget(ownerId: string): Promise<void> {
      await deps.sql.query(`DELETE FROM privacy_security_log WHERE owner_id = $1`, [ownerId]);
    },
  };
}

export type SecurityLog = ReturnType<typeof createSecurityLog>;
