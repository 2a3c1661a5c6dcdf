import type { AllPosition } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql, SqlTransaction } from '../sql/sql.port.js';
import { onEverySqlBackend } from '../../testing/sql-backends.js';
import { CheckpointMovedError, commitTogether } from './batch-commits.js';
import { advanceCheckpoint, readCheckpoint, resetCheckpoint } from './checkpoints.js';

const at = (n: number): AllPosition => ({ commit: BigInt(n), prepare: BigInt(n) });

await onEverySqlBackend("read models' batches committed together", (backend, open) => {
  describe(`read models' batches committed together on ${backend}`, () => {
    let sql: Sql;
    let teardown: () => Promise<void>;
    /** What the shared database handle was asked, by kind. */
    const asked = { transactions: 0, checkpointUpdates: 0 };
    let counted: Sql;

    beforeAll(async () => {
      ({ sql, close: teardown } = await open());
      await sql.query(`CREATE TABLE IF NOT EXISTS applied (name text PRIMARY KEY, tx text NOT NULL)`);
      const inside = (tx: SqlTransaction): SqlTransaction => ({
        query: (text, params) => {
          if (text.includes('UPDATE projection_checkpoints')) asked.checkpointUpdates++;
          return tx.query(text, params);
        },
        exec: (script) => tx.exec(script),
      });
      counted = {
        ...sql,
        transaction: (work) => {
          asked.transactions++;
          return sql.transaction((tx) => work(inside(tx)));
        },
      };
    });
    afterAll(() => teardown?.());

    const reader = async (name: string) => {
      await resetCheckpoint(sql, name, 1);
      return name;
    };
    const insert = (name: string) => async (tx: SqlTransaction) => {
      await tx.query(`INSERT INTO applied (name, tx) VALUES ($1, pg_current_xact_id()::text)`, [name]);
    };
    const applied = async (names: string[]) => {
      const { rows } = await sql.query<{ name: string; tx: string }>(
        `SELECT name, tx FROM applied WHERE name = ANY($1::text[]) ORDER BY name`,
        [names],
      );
      return rows;
    };
    const stored = async (name: string) => (await readCheckpoint(sql, name))?.position.prepare;

    it('applies the batches of one turn in one transaction and moves their checkpoints in one statement', async () => {
      const names = await Promise.all(['a1', 'a2', 'a3'].map(reader));
      const commit = commitTogether(counted);
      asked.transactions = asked.checkpointUpdates = 0;
      await Promise.all(names.map((name) => commit(insert(name), { name, from: at(0), to: at(7) })));
      expect(asked).toEqual({ transactions: 1, checkpointUpdates: 1 });
      const rows = await applied(names);
      expect(rows.map((row) => row.name)).toEqual(names);
      expect(new Set(rows.map((row) => row.tx)).size).toBe(1);
      for (const name of names) expect(await stored(name)).toBe(7n);
    });

    it('fails only the batch that failed: the others are written with their checkpoints', async () => {
      const names = await Promise.all(['b1', 'b2', 'b3'].map(reader));
      const commit = commitTogether(counted);
      const results = await Promise.allSettled([
        commit(insert('b1'), { name: 'b1', from: at(0), to: at(5) }),
        commit(
          async (tx) => {
            await insert('b2')(tx);
            throw new Error('this projection is broken');
          },
          { name: 'b2', from: at(0), to: at(5) },
        ),
        commit(insert('b3'), { name: 'b3', from: at(0), to: at(5) }),
      ]);
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason.message).toBe('this projection is broken');
      expect((await applied(names)).map((row) => row.name)).toEqual(['b1', 'b3']);
      expect([await stored('b1'), await stored('b2'), await stored('b3')]).toEqual([5n, 0n, 5n]);
    });

    it('rolls back a batch whose checkpoint another reader moved, and only that batch', async () => {
      const names = await Promise.all(['c1', 'c2'].map(reader));
      // A replay (or a second projector) moved c2 past where this reader thinks it stands.
      expect(await advanceCheckpoint(sql, 'c2', at(0), at(9))).toBe(true);
      const commit = commitTogether(counted);
      const results = await Promise.allSettled([
        commit(insert('c1'), { name: 'c1', from: at(0), to: at(4) }),
        commit(insert('c2'), { name: 'c2', from: at(0), to: at(4) }),
      ]);
      expect(results[0]!.status).toBe('fulfilled');
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(CheckpointMovedError);
      expect((await applied(names)).map((row) => row.name)).toEqual(['c1']);
      expect([await stored('c1'), await stored('c2')]).toEqual([4n, 9n]);
    });

    it('keeps the batches of different turns apart', async () => {
      const names = await Promise.all(['d1', 'd2'].map(reader));
      const commit = commitTogether(counted);
      await commit(insert('d1'), { name: 'd1', from: at(0), to: at(2) });
      await commit(insert('d2'), { name: 'd2', from: at(0), to: at(2) });
      const rows = await applied(names);
      expect(rows[0]!.tx).not.toBe(rows[1]!.tx);
    });
  });
});
