import type { Migration } from '../../platform/sql/migrations.js';

/** Channel customers' pending /forget requests (channel-forget.ts), keyed by integration and chat. */
export const channelForgetMigrations: readonly Migration[] = [
  {
    id: '001-forget-requests',
    sql: `CREATE TABLE IF NOT EXISTS privacy_forget_requests (
    integration_id text NOT NULL,
    chat_id text NOT NULL,
    requested_at timestamptz NOT NULL,
    PRIMARY KEY (integration_id, chat_id)
  )`,
  },
  {
    // The delivery that confirmed a request: the bus delivering that confirmation again finds it done
    // (answered "done" again, sent once) instead of passing a lone "yes" to the assistant.
    id: '002-forget-confirmed-by',
    sql: `ALTER TABLE privacy_forget_requests ADD COLUMN IF NOT EXISTS confirmed_by text`,
  },
];
