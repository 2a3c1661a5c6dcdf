import type { RecordedEvent } from '@kesher/contracts';

/** The slice of a SQL connection a projection needs; the runner hands it one inside its transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
}

/**
 * A read model built from the event log. The runner applies each batch and moves the checkpoint in the
 * same transaction, so a batch is applied exactly once even across crashes. `apply` must never throw
 * on a recorded fact: skip, clamp or default instead. Bump `version` whenever what `apply` writes
 * changes; the runner then drops the tables (`reset`) and rebuilds from position zero.
 */
export interface Projection {
  name: string;
  version: number;
  /** Only these event types are read for this projection. */
  eventTypes: readonly string[];
  /** Creates the tables if missing (idempotent). */
  setup(db: Queryable): Promise<void>;
  /** Removes everything this projection built. */
  reset(db: Queryable): Promise<void>;
  apply(db: Queryable, events: readonly RecordedEvent[]): Promise<void>;
  /** Tables whose content defines the read model (used for checksums in rebuild tests). */
  tables: readonly string[];
}
