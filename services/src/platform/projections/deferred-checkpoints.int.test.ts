import type { AllPosition } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, createTestPglite, postgresAvailability } from '../../testing/test-database.js';
import { readCheckpoint, resetCheckpoint } from './checkpoints.js';
import { deferredCheckpointWriter } from './deferred-checkpoints.js';

const gate = await postgresAvailability();
const at = (n: number): AllPosition => ({ commit: BigInt(n), prepare: BigInt(n) });

const backends: [string, () => Promise<{ sql: Sql; teardown: () => Promise<void> }>][] = [
  ['PGlite', async () => ({ sql: await createTestPglite(), teardown: async () => {} })],
];
if (gate.available)
  backends.push([
    'Postgres',
    async () => {
      const db = await createTestDatabase('kesher_deferred_checkpoints');
      const sql = createPgSql({ connectionString: db.url });
      return { sql, teardown: async () => (await sql.close(), await db.drop()) };
    },
  ]);

for (const [backend, open] of backends) {
  describe(`deferred checkpoint writes on ${backend}`, () => {
    let sql: Sql;
    let teardown: () => Promise<void>;
    let statements = 0;
    let counted: Sql;
    beforeAll(async () => {
      ({ sql, teardown } = await open());
      counted = {
        ...sql,
        query: (text, params) => {
          if (text.includes('UPDATE projection_checkpoints')) statements++;
          return sql.query(text, params);
        },
      };
    });
    afterAll(async () => {
      if (backend === 'PGlite') await sql.close();
      await teardown();
    });

    it('writes the moment’s checkpoints in one statement, each its own compare-and-set', async () => {
      for (const name of ['a', 'b', 'c']) await resetCheckpoint(sql, name, 1);
      const write = deferredCheckpointWriter(counted);
      expect(deferredCheckpointWriter(counted)).toBe(write);
      statements = 0;
      // 'c' was moved meanwhile by another reader (a replay, a second projector): its write must fail alone.
      const moved = await Promise.all([write('a', at(0), at(5)), write('b', at(0), at(7)), write('c', at(3), at(9))]);
      expect(moved).toEqual([true, true, false]);
      expect(statements).toBe(1);
      expect((await readCheckpoint(sql, 'a'))?.position).toEqual(at(5));
      expect((await readCheckpoint(sql, 'b'))?.position).toEqual(at(7));
      expect((await readCheckpoint(sql, 'c'))?.position).toEqual(at(0));
      // The next moment is a statement of its own, from where each now stands.
      expect(await write('a', at(5), at(6))).toBe(true);
      expect(statements).toBe(2);
    });

    it('fails every write of a statement that fails, and the next ones go on', async () => {
      const failing: Sql = { ...sql, query: () => Promise.reject(new Error('connection lost')) };
      const write = deferredCheckpointWriter(failing);
      await expect(Promise.all([write('a', at(6), at(8)), write('b', at(7), at(8))])).rejects.toThrow(
        'connection lost',
      );
      expect((await readCheckpoint(sql, 'a'))?.position).toEqual(at(6));
    });
  });
}
