import { afterAll, describe, expect, it } from 'vitest';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../../testing/test-database.js';
import { deploymentId } from './deployment-id.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(
  `the deployment's id (Postgres)${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    const cleanups: (() => Promise<void>)[] = [];
    /** A fresh database and one pool per "process": the four of a deployment start together on it. */
    async function database(): Promise<Sql[]> {
      const db = await createTestDatabase('kesher_deployment');
      const pools = Array.from({ length: 4 }, () => createPgSql({ connectionString: db.url, max: 2 }));
      cleanups.push(async () => {
        await Promise.all(pools.map((pool) => pool.close()));
        await db.drop();
      });
      return pools;
    }
    afterAll(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    it('is one id for every process of a deployment, kept across restarts, and another for another database', async () => {
      const processes = await database();
      const ids = await Promise.all(processes.map((sql) => deploymentId(sql)));
      expect(new Set(ids).size).toBe(1);
      expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
      expect(await deploymentId(processes[0]!)).toBe(ids[0]);

      const [other] = await database();
      expect(await deploymentId(other!)).not.toBe(ids[0]);
    });
  },
);

describe('the deployment id (PGlite, the embedded default on Kafka)', () => {
  it('is drawn once and kept', async () => {
    const sql = await createTestPglite();
    try {
      const id = await deploymentId(sql);
      expect(id).toMatch(/^[0-9a-f]{16}$/);
      expect(await deploymentId(sql)).toBe(id);
    } finally {
      await sql.close();
    }
  });
});
