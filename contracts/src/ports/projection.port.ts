import type { RecordedEvent } from '../events/envelope.js';

/**
 * The platform's ports that read models implement. They are the platform's (services/src/platform runs
 * them), but they live here rather than under services: services depends on the read models (the API
 * reads their queries, the composition roots register them), so read models importing their port from
 * services would make the two workspaces depend on each other. Both already depend on contracts.
 */

/** The slice of a SQL connection a projection needs; the runner hands it one inside its transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
}

/**
 * One step of a module's schema: applied once, in list order, and recorded (services/src/platform/sql/
 * migrations.ts). A list only grows: a change to a table is a new migration, never an edit of an applied
 * one (the runner refuses an applied migration whose text changed). `sql` may hold several statements.
 */
export interface Migration {
  readonly id: string;
  readonly sql: string;
}

/**
 * A read model built from the event log. The runner applies each batch and moves the checkpoint in the
 * same transaction, so a batch is applied exactly once even across crashes. `apply` must never throw
 * on a recorded fact: skip, clamp or default instead. Bump `version` whenever what `apply` writes
 * changes; the runner then drops `tables`, applies `migrations` again and rebuilds from position zero.
 */
export interface Projection {
  name: string;
  version: number;
  /** Only these event types are read for this projection. */
  eventTypes: readonly string[];
  /** The read model's schema, in order; the runner applies the ones not yet applied before it reads. */
  migrations: readonly Migration[];
  /** Every table the migrations create: dropped on a rebuild, and what defines the read model (checksums in rebuild tests). */
  tables: readonly string[];
  apply(db: Queryable, events: readonly RecordedEvent[]): Promise<void>;
}
