import type { Migration } from '../platform/sql/migrations.js';

/**
 * The chat module's own tables (conversations themselves are events and read models): visitors' runs of
 * today and yesterday, for the per-visitor daily allowance (visitor-answers/visitor-answers.ts), and the
 * live output of recent runs, which any API process streams from (run-output/sql.run-output.ts).
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
  {
    // One row per burst of the model's tokens, then one 'end' row with the outcome; kept about an hour.
    id: '002-run-output',
    sql: `CREATE TABLE IF NOT EXISTS run_output (
    run_id text NOT NULL,
    seq integer NOT NULL,
    kind text NOT NULL CHECK (kind IN ('delta', 'end')),
    text text NOT NULL DEFAULT '',
    outcome jsonb,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (run_id, seq)
  );
  CREATE INDEX IF NOT EXISTS run_output_created_at ON run_output (created_at);`,
  },
  {
    // Row 0 of a run is the worker's claim on it (its text names the claimant): sql.run-output.ts.
    id: '003-run-output-claim',
    sql: `ALTER TABLE run_output DROP CONSTRAINT IF EXISTS run_output_kind_check;
  ALTER TABLE run_output ADD CONSTRAINT run_output_kind_check CHECK (kind IN ('delta', 'end', 'claim'));`,
  },
];
