import type { Migration } from '../platform/sql/migrations.js';

/** The assistants module's write-side state: the sequence that hands out assistants' numeric ids. */
export const assistantMigrations: readonly Migration[] = [
  { id: '001-numeric-ids', sql: `CREATE SEQUENCE IF NOT EXISTS assistant_numeric_ids` },
];
