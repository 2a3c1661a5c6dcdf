import type { Migration } from '../platform/sql/migrations.js';

/**
 * Drive's own table: each owner's Google grant (the refresh token, sealed), a credential rather than a
 * domain fact, so it is kept out of the event log (see drive-connections.ts).
 */
export const driveMigrations: Migration[] = [
  {
    id: '001-drive-connections',
    sql: `CREATE TABLE IF NOT EXISTS drive_connections (
      owner_id text PRIMARY KEY,
      sealed_refresh_token text NOT NULL,
      connected_at timestamptz NOT NULL
    )`,
  },
];
