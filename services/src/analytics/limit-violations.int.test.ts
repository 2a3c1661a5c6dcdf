import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandHandler } from '../platform/commands/command-handler.js';
import { withEventSchemas } from '../platform/event-store/schema-checked.event-store.js';
import { createSqlEventStore } from '../platform/event-store/sql-event-store.js';
import { createPgSql } from '../platform/sql/pg.sql.js';
import type { Sql } from '../platform/sql/sql.port.js';
import { createTestDatabase, postgresAvailability } from '../testing/test-database.js';
import { createLimitViolations, LimitViolationNotRecordedError, type LimitRefusal } from './limit-violations.js';

const gate = await postgresAvailability();

/**
 * The real Postgres, but the next `failures` appends fail as a session ended by the database would:
 * `'before'` the statement reaches it (nothing written), or `'after'` it committed (the answer lost).
 */
function faultyAppends(sql: Sql) {
  let failures = 0;
  let when: 'before' | 'after' = 'before';
  const faulty: Sql = {
    ...sql,
    async query(text, params) {
      if (!text.includes('kesher_append_batch') || failures === 0) return sql.query(text, params);
      failures--;
      if (when === 'after') await sql.query(text, params);
      throw new Error('Connection terminated unexpectedly');
    },
  };
  return { sql: faulty, fail: (times: number, at: 'before' | 'after') => ((failures = times), (when = at)) };
}

const refusal = (ownerId: string): LimitRefusal => ({
  ownerId,
  kind: 'assistants',
  limit: 1,
  used: 1,
  requested: null,
  assistantId: null,
  refused: 'owner',
});
const context = { actor: { kind: 'account' as const, id: 'owner' }, correlationId: 'c', now: new Date() };

/** A refusal answered must be a refusal recorded: the limits page must not miss one to a database hiccup. */
describe.skipIf(!gate.available)(
  `recording limit refusals${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let faults: ReturnType<typeof faultyAppends>;
    let close: () => Promise<void>;
    beforeAll(async () => {
      db = await createTestDatabase();
      sql = createPgSql({ connectionString: db.url, max: 4 });
      faults = faultyAppends(sql);
      const store = withEventSchemas(await createSqlEventStore({ sql: faults.sql }));
      close = () => store.close();
      handle = createCommandHandler({ eventStore: store });
    });
    let handle: ReturnType<typeof createCommandHandler>;
    afterAll(async () => {
      await close?.();
      await sql?.close();
      await db?.drop();
    });

    const recorded = async (ownerId: string) =>
      (
        await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM events WHERE event_type = 'LimitViolated' AND data->>'ownerId' = $1`,
          [ownerId],
        )
      ).rows[0]!.n;

    it('records a refusal once when the database fails the first attempt', async () => {
      const errors: unknown[] = [];
      const violations = createLimitViolations({
        handle,
        onError: (error) => errors.push(error),
        retryDelaysMs: [1, 1, 1],
      });
      const ownerId = randomUUID();
      faults.fail(1, 'before');
      await violations.record(context, refusal(ownerId));
      expect(await recorded(ownerId)).toBe(1);
      expect(errors).toHaveLength(1);
    });

    it('records it once when the first attempt committed but its answer was lost', async () => {
      const violations = createLimitViolations({ handle, retryDelaysMs: [1, 1, 1] });
      const ownerId = randomUUID();
      faults.fail(1, 'after');
      await violations.record(context, refusal(ownerId));
      expect(await recorded(ownerId)).toBe(1);
    });

    it('fails loudly, after a bounded number of attempts, when the database keeps failing', async () => {
      const errors: unknown[] = [];
      const violations = createLimitViolations({
        handle,
        onError: (error) => errors.push(error),
        retryDelaysMs: [1, 1],
      });
      const ownerId = randomUUID();
      faults.fail(100, 'before');
      await expect(violations.record(context, refusal(ownerId))).rejects.toBeInstanceOf(LimitViolationNotRecordedError);
      faults.fail(0, 'before');
      expect(errors).toHaveLength(3);
      expect(await recorded(ownerId)).toBe(0);
    });
  },
);
