import type { Sql } from '../sql/sql.port.js';

/**
 * One row: the id of the deployment this database belongs to, drawn on its first start and kept. The
 * first process to start creates it (under the schema lock `exec` takes, so processes starting together
 * on a fresh database agree on one id); every later process of the deployment reads the same one.
 */
export const deploymentSchema = `CREATE TABLE IF NOT EXISTS kesher_deployment (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO kesher_deployment (id) VALUES (left(replace(gen_random_uuid()::text, '-', ''), 16)) ON CONFLICT DO NOTHING`;

/**
 * A Kafka broker knows nothing of Kesher's databases: its topics (`kesher.<category>`) and consumer groups
 * are shared by every deployment that uses it — the bench's runs, tests, a second environment. What a
 * worker can do with a message lives in its own database, so the workers of two deployments must never
 * share a group: each would be handed part of the other's messages, find nothing about them in its own
 * database, and acknowledge them unhandled. This id names the deployment's own groups.
 */
export async function deploymentId(sql: Sql): Promise<string> {
  await sql.exec(deploymentSchema);
  const { rows } = await sql.query<{ id: string }>(`SELECT id FROM kesher_deployment`);
  return rows[0]!.id;
}
