import { createHash } from 'node:crypto';
import pg from 'pg';
import { listenStatement, SCHEMA_LOCK_KEY, type QueryOptions, type Sql, type SqlTransaction } from './sql.port.js';

export interface PgSqlOptions {
  connectionString: string;
  /** Pool size; the event store's writers and the projector share it. */
  max?: number;
  applicationName?: string;
}

/** Prepared statements' names, by their text: pg keeps one per name on each connection. */
const names = new Map<string, string>();

function statement(text: string, params: readonly unknown[] | undefined, options: QueryOptions | undefined) {
  const values = params as unknown[] | undefined;
  if (!options?.prepared) return { text, values };
  let name = names.get(text);
  if (!name) names.set(text, (name = `kesher_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return { name, text, values };
}

export function createPgSql(options: PgSqlOptions): Sql {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 20,
    application_name: options.applicationName ?? 'kesher',
  });
  // An idle client losing its connection (e.g. Postgres restarting) must not crash the process.
  pool.on('error', () => {});
  // Nor a client between the pool and its caller: a new client is handed over from inside the socket
  // handler that read its ReadyForQuery, so a FATAL in the same packet (a session ended at once) is
  // emitted before the caller's await resumes and can listen. Every client therefore always has a
  // listener; a client that lost its session is no longer queryable, and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => {}));

  /**
   * A client checked out for several statements. pg emits 'error' on a client whose session ends (Postgres
   * restarting or failing over, `pg_terminate_backend`), and the pool listens only while the client is
   * idle: unheard, that event killed the process. Here it is heard; the statement under way (or the next
   * one) fails with an ordinary error, and the client goes back as broken, so the pool drops it instead of
   * handing a dead session to the next caller.
   */
  async function checkedOut<T>(use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost ??= error;
    };
    client.on('error', onLost);
    try {
      return await use(client);
    } finally {
      // release() puts the pool's own listener back before anything else can be emitted.
      client.release(lost ?? false);
      client.removeListener('error', onLost);
    }
  }
  const listeners = new Set<() => Promise<void>>();

  return {
    kind: 'postgres',
    query: async <Row>(text: string, params?: readonly unknown[], options?: QueryOptions) =>
      (await pool.query(statement(text, params, options))) as unknown as { rows: Row[] },
    exec: (script) =>
      checkedOut(async (client) => {
        try {
          await client.query('BEGIN');
          await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
          await client.query(script);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
      }),
    transaction: (work) =>
      checkedOut(async (client) => {
        try {
          await client.query('BEGIN');
          const tx: SqlTransaction = {
            query: async <Row>(text: string, params?: readonly unknown[], options?: QueryOptions) =>
              (await client.query(statement(text, params, options))) as unknown as { rows: Row[] },
            // Without parameters, pg sends the simple protocol, which runs several statements.
            exec: async (script: string) => void (await client.query(script)),
          };
          const result = await work(tx);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
      }),
    async listen(channel, onNotify) {
      // A dedicated connection (a pooled one would be handed to others). It is re-opened when it drops
      // (Postgres restarting, a network cut): notifications sent meanwhile are lost, which every
      // listener tolerates (the event store polls anyway; live answers fall back to the stored one).
      let current: pg.Client | undefined;
      let stopped = false;
      let retryMs = 250;
      let retryTimer: NodeJS.Timeout | undefined;
      const open = async () => {
        const client = new pg.Client({
          connectionString: options.connectionString,
          application_name: `${options.applicationName ?? 'kesher'}-listen`,
        });
        const lost = () => {
          if (stopped || current !== client) return;
          current = undefined;
          client.end().catch(() => {});
          retryTimer = setTimeout(reopen, retryMs);
        };
        client.on('error', lost);
        client.on('end', lost);
        client.on('notification', (message) => {
          if (message.channel === channel) onNotify(message.payload ?? '');
        });
        try {
          await client.connect();
          await client.query(listenStatement(channel));
        } catch (error) {
          await client.end().catch(() => {});
          throw error;
        }
        current = client;
        retryMs = 250;
      };
      const reopen = () => {
        if (stopped) return;
        open().catch(() => {
          retryMs = Math.min(retryMs * 2, 10_000);
          retryTimer = setTimeout(reopen, retryMs);
        });
      };
      await open();
      const stop = async () => {
        stopped = true;
        clearTimeout(retryTimer);
        listeners.delete(stop);
        const client = current;
        current = undefined;
        await client?.end().catch(() => {});
      };
      listeners.add(stop);
      return stop;
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}
