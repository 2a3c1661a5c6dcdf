import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { waitUntil } from '../../testing/processes.js';
import { createPgSql } from './pg.sql.js';
import type { Sql } from './sql.port.js';

const gate = await postgresAvailability();

/**
 * Postgres ending Kesher's sessions (a restart, a failover, `pg_terminate_backend`) while transactions,
 * queries and LISTEN are under way: the process lives, each operation under way fails with an ordinary
 * error, and the next ones succeed on new sessions. Before, the 'error' a checked-out client emits went
 * unheard and the process exited 1.
 */
describe.skipIf(!gate.available)(
  `Postgres sessions ended under Kesher${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let admin: pg.Client;
    let sql: Sql;
    const app = `kesher-ended-${randomBytes(4).toString('hex')}`;
    const uncaught: unknown[] = [];
    const recordUncaught = (error: unknown) => void uncaught.push(error);

    beforeAll(async () => {
      process.on('uncaughtException', recordUncaught);
      db = await createTestDatabase('kesher_test', { empty: true });
      admin = new pg.Client({ connectionString: db.url });
      await admin.connect();
      sql = createPgSql({ connectionString: db.url, max: 6, applicationName: app });
    });
    afterAll(async () => {
      process.off('uncaughtException', recordUncaught);
      await sql?.close();
      await admin?.end();
      await db?.drop();
    });

    it('survives its sessions being terminated mid-transaction, mid-query and while listening, and works on afterwards', async () => {
      const heard: string[] = [];
      await sql.listen('ended_test', (payload) => heard.push(payload));

      // A transaction inside a statement, a transaction between statements (its work awaits), a plain query.
      let letGo!: () => void;
      const holding = new Promise<void>((resolve) => (letGo = resolve));
      let between!: () => void;
      const isBetween = new Promise<void>((resolve) => (between = resolve));
      const inStatement = sql.transaction((tx) => tx.query(`SELECT pg_sleep(30)`));
      const betweenStatements = sql.transaction(async (tx) => {
        await tx.query(`SELECT 1`);
        between();
        await holding;
        return tx.query(`SELECT 2`);
      });
      const plain = sql.query(`SELECT pg_sleep(30)`);
      const settled = Promise.allSettled([inStatement, betweenStatements, plain]);
      await isBetween;
      // Three pooled sessions and the LISTEN one.
      const pids = await waitUntil(
        async () => {
          const { rows } = await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1`,
            [`${app}%`],
          );
          return rows.length >= 4 ? rows.map((row) => row.pid) : undefined;
        },
        { timeoutMs: 30_000, what: 'the sessions to be open' },
      );

      await admin.query(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid`, [pids]);
      await waitUntil(
        async () =>
          (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])`, [pids])).rows.length === 0,
        {
          timeoutMs: 30_000,
          what: 'the sessions to end',
        },
      );
      // The transaction between statements heard its session end while idle; only then does it go on.
      await Promise.allSettled([inStatement, plain]);
      letGo();
      const outcomes = await settled;
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const outcome of outcomes) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(Error);

      // The next operations run on new sessions.
      expect((await sql.query<{ n: number }>(`SELECT 1 AS n`)).rows).toEqual([{ n: 1 }]);
      expect(await sql.transaction(async (tx) => (await tx.query<{ n: number }>(`SELECT 2 AS n`)).rows)).toEqual([
        { n: 2 },
      ]);
      await sql.exec(`CREATE TABLE after_the_end (n int)`);
      // LISTEN is open again: a notification sent after it came back arrives.
      await waitUntil(
        async () => {
          await admin.query(`SELECT pg_notify('ended_test', 'again')`);
          return heard.includes('again');
        },
        { timeoutMs: 15_000, intervalMs: 50, what: 'LISTEN to be back' },
      );
      expect(uncaught).toEqual([]);
    });
  },
);

describe.skipIf(!gate.available)(
  `statements kept prepared${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    beforeAll(async () => {
      db = await createTestDatabase('kesher_test', { empty: true });
      // One connection: what one statement prepares, the next sees.
      sql = createPgSql({ connectionString: db.url, max: 1 });
      await sql.exec(`CREATE TABLE kept (id int PRIMARY KEY, label text NOT NULL)`);
      await sql.query(`INSERT INTO kept VALUES (1, 'one'), (2, 'two')`);
    });
    afterAll(async () => {
      await sql?.close();
      await db?.drop();
    });

    const byId = `SELECT label FROM kept WHERE id = $1`;
    const prepared = async () =>
      (await sql.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements`)).rows.map(
        (row) => row.statement,
      );

    it('prepares a statement once per connection when asked, and only then', async () => {
      await sql.query(`SELECT count(*) FROM kept WHERE id > $1`, [0]);
      expect(await prepared()).toEqual([]);
      for (const id of [1, 2, 1]) await sql.query(byId, [id], { prepared: true });
      expect(await prepared()).toEqual([byId]);
      expect(
        await sql.transaction(async (tx) => (await tx.query<{ label: string }>(byId, [2], { prepared: true })).rows),
      ).toEqual([{ label: 'two' }]);
      expect(await prepared()).toEqual([byId]);
    });

    it("keeps working when the statement's table is dropped and made again (a read model's rebuild)", async () => {
      await sql.exec(`DROP TABLE kept; CREATE TABLE kept (id int PRIMARY KEY, label text NOT NULL)`);
      await sql.query(`INSERT INTO kept VALUES (1, 'uno')`);
      expect((await sql.query<{ label: string }>(byId, [1], { prepared: true })).rows).toEqual([{ label: 'uno' }]);
    });
  },
);
