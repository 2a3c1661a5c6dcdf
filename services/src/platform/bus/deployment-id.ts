import type { Sql } from '../sql/sql.port.js';

/**
 * A Kafka broker knows nothing of Kesher's databases: its topics (`kesher.<category>`) and consumer groups
 * are shared by every deployment that uses it — the bench's runs, tests, a second environment. What a
 * worker can do with a message lives in its own database, so the workers of two deployments must never
 * share a group: each would be handed part of the other's messages, find nothing about them in its own
 * database, and acknowledge them unhandled. This id names the deployment's own groups: drawn by the
 * bus module's migrations on the database's first start (bus.migrations.ts), read by every later process.
 */
export async function deploymentId(sql: Sql): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(`SELECT id FROM kesher_deployment`);
  return rows[0]!.id;
}
