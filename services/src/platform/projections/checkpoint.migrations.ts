import type { Migration } from '../sql/migrations.js';

/** Where every checkpointed subscription (read models, the relay) keeps its place in the log. */
export const checkpointMigrations: readonly Migration[] = [
  {
    id: '001-projection-checkpoints',
    sql: `CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  version int NOT NULL,
  commit_position numeric(20) NOT NULL,
  prepare_position bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
  },
];
