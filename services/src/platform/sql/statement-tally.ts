import { renameSync, writeFileSync } from 'node:fs';
import type { Sql, SqlTransaction } from './sql.port.js';

/** What a process asked of the database over a stretch of time: statements by their text, and transactions. */
export interface StatementTally {
  /** Milliseconds the stretch lasted. */
  ms: number;
  /** Statements sent on their own (each its own transaction) and statements inside transactions, by text. */
  statements: { text: string; inTransaction: boolean; count: number }[];
  transactions: number;
}

const keys = new Map<string, string>();
/**
 * A statement's text shortened to its key. The texts are the code's constants, so each is shortened once:
 * normalising every statement's whitespace again cost about a millisecond of each chat turn's CPU, which the
 * chat bench measures over the same stretch as it counts.
 */
function keyOf(text: string) {
  let key = keys.get(text);
  if (key === undefined) {
    key = text.replace(/\s+/g, ' ').trim().slice(0, 160);
    if (keys.size < 10_000) keys.set(text, key);
  }
  return key;
}

/**
 * Counts the statements a process sends, by their (shortened) text: how the chat bench attributes a turn's
 * round trips to the code that asks for them. Only for benchmarks (`SQL_STATEMENT_TALLY`): a statement costs
 * a map update more.
 */
export function withStatementTally(sql: Sql) {
  let counts = new Map<string, { text: string; inTransaction: boolean; count: number }>();
  let transactions = 0;
  let since = performance.now();
  const count = (text: string, inTransaction: boolean) => {
    const key = `${inTransaction ? 'tx' : 'own'} ${keyOf(text)}`;
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { text: keyOf(text), inTransaction, count: 1 });
  };
  const inside = (tx: SqlTransaction): SqlTransaction => ({
    query: (text, params, options) => {
      count(text, true);
      return tx.query(text, params, options);
    },
    exec: (script) => {
      count(script, true);
      return tx.exec(script);
    },
  });
  const counted: Sql = {
    kind: sql.kind,
    query: (text, params, options) => {
      count(text, false);
      return sql.query(text, params, options);
    },
    exec: (script) => sql.exec(script),
    transaction: (work) => {
      transactions++;
      return sql.transaction((tx) => work(inside(tx)));
    },
    listen: (channel, onNotify) => sql.listen(channel, onNotify),
    close: () => sql.close(),
  };
  return {
    sql: counted,
    /** Starts a new stretch. */
    reset() {
      counts = new Map();
      transactions = 0;
      since = performance.now();
    },
    read(): StatementTally {
      return {
        ms: Math.round(performance.now() - since),
        statements: [...counts.values()].sort((a, b) => b.count - a.count),
        transactions,
      };
    },
  };
}

/**
 * The benchmark's switch: with `SQL_STATEMENT_TALLY=<file>`, SIGUSR2 starts a stretch and the next SIGUSR2
 * writes it to `<file>.<pid>` (JSON), and so on; without it the database handle is returned as it is.
 */
export function statementTallyFromEnv(sql: Sql, file = process.env.SQL_STATEMENT_TALLY): Sql {
  if (!file) return sql;
  const tally = withStatementTally(sql);
  let open = false;
  process.on('SIGUSR2', () => {
    if (open) {
      // Written aside and renamed, so the benchmark polling for the file never reads it half written.
      const target = `${file}.${process.pid}`;
      writeFileSync(`${target}.partial`, JSON.stringify(tally.read()));
      renameSync(`${target}.partial`, target);
    } else tally.reset();
    open = !open;
  });
  return tally.sql;
}
