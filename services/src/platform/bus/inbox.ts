import type { Sql, SqlExecutor } from '../sql/sql.port.js';

/**
 * Makes a bus handler's database effect exactly-once on top of at-least-once delivery: the message id
 * is recorded in the same transaction as the effect, and a redelivered id is skipped. Its table,
 * `bus_inbox`, is in bus.migrations.ts.
 */
export async function createInbox(deps: { sql: Sql; consumer: string }) {
  return async function once(messageId: string, effect: (tx: SqlExecutor) => Promise<void>): Promise<boolean> {
    return deps.sql.transaction(async (tx) => {
      const { rows } = await tx.query(
        `INSERT INTO bus_inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id`,
        [deps.consumer, messageId],
      );
      if (rows.length === 0) return false;
      await effect(tx);
      return true;
    });
  };
}
