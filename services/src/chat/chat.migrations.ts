import type { Migration } from '../platform/sql/migrations.js';

/**
 * The chat module's own table (conversations themselves are events and read models): visitors' runs of
 * today and yesterday, for the per-visitor daily allowance (visitor-answers/visitor-answers.ts).
 */
export const chatMigrations: readonly Migration[] = [
  {
    id: '001-visitor-runs',
    sql: `CREATE TABLE IF NOT EXISTS visitor_runs (
    run_id text PRIMARY KEY,
    assistant_id text NOT NULL,
    day date NOT NULL,
    session_hash text NOT NULL,
    address_hash text NOT NULL
  );
  CREATE INDEX IF NOT EXISTS visitor_runs_session ON visitor_runs (assistant_id, day, session_hash);
  CREATE INDEX IF NOT EXISTS visitor_runs_address ON visitor_runs (assistant_id, day, address_hash);
  CREATE INDEX IF NOT EXISTS visitor_runs_day ON visitor_runs (day);`,
  },
];
