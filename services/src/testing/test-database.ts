import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { schemaModules } from '../main/schema-modules.js';
import { runMigrations } from '../platform/sql/migrations.js';
import { createPgliteSql } from '../platform/sql/pglite.sql.js';
import { createPgSql } from '../platform/sql/pg.sql.js';
import type { Sql } from '../platform/sql/sql.port.js';
import { gateService, type ServiceAvailability } from './service-gate.js';

/** The Postgres the tests use: DATABASE_URL, else the machine's local server (trust auth, database `test`). */
export const testDatabaseUrl = () => process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresAvailability(): Promise<ServiceAvailability> {
  return gateService('Postgres', () =>
    whileServerBusy(async () => {
      const client = new pg.Client({ connectionString: testDatabaseUrl(), connectionTimeoutMillis: 3000 });
      await client.connect();
      await client.end();
    }),
  );
}

/** SQLSTATEs of a server that is there but cannot take this connection yet: full, or starting up. */
const BUSY_SERVER = new Set(['53300', '57P03']);

/**
 * A server with every connection slot taken (the suite's files in parallel beside another Postgres user on a
 * shared machine) answers "too many clients already": it is there, and will have room once a file ends.
 * That is waited out, up to `deadlineMs`, instead of failing the file as if Postgres were missing.
 */
export async function whileServerBusy(
  connect: () => Promise<void>,
  { deadlineMs = 120_000, pauseMs = 500, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)) } = {},
): Promise<void> {
  for (let waited = 0; ; waited += pauseMs) {
    try {
      return await connect();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !BUSY_SERVER.has(code) || waited >= deadlineMs) throw error;
      await sleep(pauseMs);
    }
  }
}

function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A fresh database per test file, so suites run in parallel without seeing each other's events, with
 * every module's migrations applied as a composition root applies them (`{ empty: true }`: no tables at
 * all). `drop` removes it (forcing out connections a crashed child may have left behind).
 */
export async function createTestDatabase(
  prefix = 'kesher_test',
  options: { empty?: boolean } = {},
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(testDatabaseUrl(), name);
  if (!options.empty) {
    const sql = createPgSql({ connectionString: url, max: 1 });
    await runMigrations(sql, schemaModules({ sqlEventStore: true })).finally(() => sql.close());
  }
  return {
    name,
    url,
    async drop() {
      const client = new pg.Client({ connectionString: testDatabaseUrl() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** An in-memory embedded database with every module's migrations applied, as `make start` has it. */
export async function createTestPglite(): Promise<Sql> {
  const sql = await createPgliteSql();
  await runMigrations(sql, schemaModules({ sqlEventStore: true }));
  return sql;
}
