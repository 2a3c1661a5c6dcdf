import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createPgSql } from './pg.sql.js';
import type { Sql } from './sql.port.js';
import { createTransactionCombiner } from './transaction-combiner.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(
  `transactions asked for together share one${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;

    beforeAll(async () => {
      db = await createTestDatabase('kesher_test', { empty: true });
      sql = createPgSql({ connectionString: db.url, max: 4 });
      await sql.query(`CREATE TABLE rows (name text PRIMARY KEY, tx text NOT NULL)`);
    });
    afterAll(async () => {
      await sql?.close();
      await db?.drop();
    });

    const insert = (name: string) => async (tx: Parameters<Parameters<Sql['transaction']>[0]>[0]) => {
      const { rows } = await tx.query<{ tx: string }>(
        `INSERT INTO rows (name, tx) VALUES ($1, pg_current_xact_id()::text) RETURNING tx`,
        [name],
      );
      return rows[0]!.tx;
    };

    it('runs the works of one turn in one transaction, each getting its own result', async () => {
      const transaction = createTransactionCombiner(sql);
      const ids = await Promise.all([transaction(insert('a')), transaction(insert('b')), transaction(insert('c'))]);
      expect(new Set(ids).size).toBe(1);
      const { rows } = await sql.query<{ name: string }>(
        `SELECT name FROM rows WHERE name IN ('a', 'b', 'c') ORDER BY name`,
      );
      expect(rows.map((r) => r.name)).toEqual(['a', 'b', 'c']);
    });

    it('fails only the work that failed: the others are written, each in its own transaction', async () => {
      const transaction = createTransactionCombiner(sql);
      const results = await Promise.allSettled([
        transaction(insert('d')),
        transaction(async (tx) => {
          await insert('e')(tx);
          throw new Error('this projection is broken');
        }),
        transaction(insert('f')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason.message).toBe('this projection is broken');
      const { rows } = await sql.query<{ name: string }>(
        `SELECT name FROM rows WHERE name IN ('d', 'e', 'f') ORDER BY name`,
      );
      expect(rows.map((r) => r.name)).toEqual(['d', 'f']);
    });

    it('keeps works of different turns apart', async () => {
      const transaction = createTransactionCombiner(sql);
      const first = await transaction(insert('g'));
      const second = await transaction(insert('h'));
      expect(first).not.toBe(second);
    });
  },
);
