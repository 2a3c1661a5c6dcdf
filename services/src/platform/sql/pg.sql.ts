import pg from 'pg';
import type { Sql, SqlExecutor } from './sql.port.js';

export interface PgSqlOptions {
  connectionString: string;
  /** Pool size; the event store's writers and the projector share it. */
  max?: number;
  applicationName?: string;
}

export function createPgSql(options: PgSqlOptions): Sql {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 20,
    application_name: options.applicationName ?? 'kesher',
  });
  // An idle client losing its connection (e.g. Postgres restarting) must not crash the process.
  pool.on('error', () => {});
  const listeners: pg.Client[] = [];

  return {
    kind: 'postgres',
    query: async <Row>(text: string, params?: readonly unknown[]) => (await pool.query(text, params as unknown[])) as unknown as { rows: Row[] },
    async exec(script) {
      await pool.query(script);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: SqlExecutor = {
          query: async <Row>(text: string, params?: readonly unknown[]) => (await client.query(text, params as unknown[])) as unknown as { rows: Row[] },
        };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onNotify) {
      const client = new pg.Client({ connectionString: options.connectionString });
      client.on('error', () => {});
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end().catch(() => {});
      };
    },
    async close() {
      await Promise.all(listeners.splice(0).map((client) => client.end().catch(() => {})));
      await pool.end();
    },
  };
}
