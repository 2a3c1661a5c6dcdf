import { PGlite } from '@electric-sql/pglite';
import type { Sql } from './sql.port.js';

/**
 * The embedded database: Postgres compiled to WebAssembly, persisted in a folder (or in memory when
 * `dataDir` is omitted). It has exactly one backend; its own mutex serialises queries and transactions.
 */
export async function createPgliteSql(options: { dataDir?: string } = {}): Promise<Sql> {
  // wal_recycle=off: a WAL segment no longer needed is deleted, not renamed for reuse with its old
  // contents, so compacting after an erasure leaves no old rows in the WAL (privacy/erasure/embedded-compaction.ts).
  const startParams = [...PGlite.defaultStartParams, '-c', 'wal_recycle=off'];
  const db = await PGlite.create(options.dataDir ? { dataDir: options.dataDir, startParams } : { startParams });
  return {
    kind: 'pglite',
    query: async (text, params) => db.query(text, params as unknown[]),
    async exec(script) {
      await db.exec(script);
    },
    transaction: async (work) =>
      db.transaction(async (tx) =>
        work({
          query: async (text, params) => tx.query(text, params as unknown[]),
          exec: async (script) => void (await tx.exec(script)),
        }),
      ),
    async listen(channel, onNotify) {
      const unlisten = await db.listen(channel, onNotify);
      return async () => unlisten();
    },
    close: async () => db.close(),
  };
}
