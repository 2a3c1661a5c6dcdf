import type { Sql } from '../../platform/sql/sql.port.js';
import type { SubjectErasure } from '../subject-erasure.port.js';

/**
 * After an erasure on the embedded default (PGlite), the database files themselves are cleaned: a read
 * model that blanks or drops a row leaves the old row version in its table's file, and the WAL keeps the
 * statements that wrote it, until Postgres reuses the space. Crypto-shredding covers the log (it never
 * held the clear text); this covers the read models' old copies (docs/privacy.md, "Database files").
 *
 * One compaction: wait until the read models have applied the erasure, then `VACUUM FULL` every table but
 * the event log (each is rewritten into a new file, its old file emptied now and removed at the next
 * checkpoint), `CHECKPOINT`, switch to a new WAL segment and `CHECKPOINT` again, so the segments that
 * held the old rows are deleted — PGlite runs with `wal_recycle=off` (platform/sql/pglite.sql.ts), else
 * an old segment would be renamed for reuse with its contents intact.
 *
 * The event log is left out: it is append-only (no old versions) and holds personal fields only sealed.
 * Erasures come in bursts (a retention run, an account's conversations): one compaction follows a burst,
 * `delayMs` after its last erasure. PGlite has one connection, so the app waits while it runs — on the
 * small databases the embedded default is for, about a second.
 *
 * On Postgres in production this is the operator's: autovacuum reuses the space in time, and WAL
 * archives and backups age out by their own retention (docs/privacy.md).
 */
export interface EmbeddedCompaction {
  /** An erasure happened: a compaction runs `delayMs` after the last one asked for. */
  afterErasure(): void;
  /** Runs a pending compaction now; resolves when none is pending or running (tests, shutdown). */
  settled(): Promise<void>;
  /** Compactions finished so far. */
  runs(): number;
}

export function createEmbeddedCompaction(deps: {
  sql: Pick<Sql, 'query'>;
  /** Resolves once every read model has applied the log as it is now (the erasure's blanking included). */
  readModelsCaughtUp: () => Promise<unknown>;
  delayMs?: number;
  onError: (error: unknown) => void;
}): EmbeddedCompaction {
  const delayMs = deps.delayMs ?? 2000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let done = 0;

  async function compact() {
    await deps.readModelsCaughtUp();
    const { rows } = await deps.sql.query<{ name: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
       WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename <> 'events' ORDER BY 1`,
    );
    for (const { name } of rows) await deps.sql.query(`VACUUM FULL ${name}`);
    await deps.sql.query('CHECKPOINT');
    await deps.sql.query('SELECT pg_switch_wal()');
    await deps.sql.query('CHECKPOINT');
    done++;
  }

  function start() {
    timer = undefined;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await compact().catch(deps.onError);
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  return {
    afterErasure() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void start(), delayMs);
      timer.unref?.();
    },
    async settled() {
      if (timer) {
        clearTimeout(timer);
        await start();
      }
      while (running) await running;
    },
    runs: () => done,
  };
}

/** The erasure, followed by a compaction of the embedded database's files (see above). */
export function withEmbeddedCompaction(erasure: SubjectErasure, compaction: EmbeddedCompaction): SubjectErasure {
  return {
    async erase(subject, why) {
      await erasure.erase(subject, why);
      compaction.afterErasure();
    },
  };
}
