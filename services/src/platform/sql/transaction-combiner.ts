import type { Sql, SqlTransaction } from './sql.port.js';

interface Work {
  run: (tx: SqlTransaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Transactions asked for in the same turn of the event loop share one: the read models woken by one
 * append each wrote their batch and checkpoint in a transaction of their own, a BEGIN, a COMMIT and a WAL
 * flush apiece, several per chat turn. Here they go one after the other inside one transaction.
 *
 * Each work must be all-or-nothing with its transaction (a projection's batch and its checkpoint are):
 * when any of them fails, the shared transaction rolls back and each runs again alone, so one failing
 * work (a checkpoint another reader moved, a bug in one projection) fails only its own caller.
 */
export function createTransactionCombiner(sql: Pick<Sql, 'transaction'>) {
  let gathering: Work[] | undefined;

  async function runAlone(work: Work) {
    try {
      work.resolve(await sql.transaction((tx) => work.run(tx)));
    } catch (error) {
      work.reject(error);
    }
  }

  async function flush(works: Work[]) {
    if (works.length === 1) return runAlone(works[0]!);
    let results: unknown[];
    try {
      results = await sql.transaction(async (tx) => {
        const done: unknown[] = [];
        for (const work of works) done.push(await work.run(tx));
        return done;
      });
    } catch {
      await Promise.all(works.map(runAlone));
      return;
    }
    works.forEach((work, i) => work.resolve(results[i]));
  }

  return function transaction<T>(run: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!gathering) {
        const works: Work[] = [];
        gathering = works;
        setImmediate(() => {
          gathering = undefined;
          void flush(works);
        });
      }
      gathering.push({ run, resolve: resolve as (value: unknown) => void, reject });
    });
  };
}
export type TransactionCombiner = ReturnType<typeof createTransactionCombiner>;
