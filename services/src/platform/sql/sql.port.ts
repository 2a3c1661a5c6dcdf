/**
 * The one database port everything SQL-shaped in Kesher goes through, so that the Postgres event store,
 * the read models and the durable in-process bus run unchanged on a real Postgres (`pg`) and on the
 * embedded PGlite. Values that may exceed 2^53 are cast to text in SQL and parsed with BigInt by callers.
 */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<{ rows: Row[] }>;
}

export interface QueryOptions {
  /**
   * Keep the statement prepared on each connection (Postgres): parsed once, and its plan kept once the
   * server finds a generic one as good. For a large statement run all the time (retrieval: planning cost
   * it 2–12 ms a chat turn). Not for statements over tables whose columns a rebuild may change under them
   * (`SELECT *`): a cached plan must keep its result type. PGlite ignores it.
   */
  prepared?: boolean;
}

/** A transaction's handle: queries, and scripts of several statements (migrations). */
export interface SqlTransaction extends SqlExecutor {
  exec(script: string): Promise<void>;
}

export interface Sql extends SqlExecutor {
  readonly kind: 'postgres' | 'pglite';
  /**
   * Runs a script of several statements without parameters, in one transaction under `SCHEMA_LOCK_KEY`.
   * Schemas are not made here but by the modules' migration lists (see migrations.ts); tests use it for
   * their own scratch tables.
   */
  exec(script: string): Promise<void>;
  /**
   * Runs `work` in one transaction. Inside it, use only the executor it is given: PGlite has a single
   * backend, and a query on the outer handle would wait for this very transaction to finish.
   */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; resolves to an unlisten function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A Postgres error's SQLSTATE and constraint, whichever driver raised it. */
export function sqlErrorInfo(error: unknown): { code?: string; constraint?: string; message: string } {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return {
    code: typeof e?.code === 'string' ? e.code : undefined,
    constraint: typeof e?.constraint === 'string' ? e.constraint : undefined,
    message: typeof e?.message === 'string' ? e.message : String(error),
  };
}

/**
 * The statement a dedicated LISTEN connection runs (and, as it runs nothing else, what `pg_stat_activity`
 * shows for it while it waits): how other processes can tell who listens on a channel.
 */
export function listenStatement(channel: string): string {
  return `LISTEN "${channel.replace(/"/g, '""')}"`;
}

/** The advisory lock every schema change takes (`exec`, migrations, a read model's rebuild), so they never run at once. */
export const SCHEMA_LOCK_KEY = 0x4b_45_53_48;
