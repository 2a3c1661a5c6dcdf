import type { SecretBox } from '../platform/secrets/secret-box.js';
import type { Sql } from '../platform/sql/sql.port.js';

/**
 * The owner's Drive grant: the refresh token Google gave at the OAuth return, sealed (platform/secrets),
 * so the browser can get a fresh access token without the consent screen. It is a credential, not a
 * domain fact, so it lives in a table that Sign Out empties — never in the event log, which is forever.
 */
export function createDriveConnections(deps: { sql: Sql; secrets: SecretBox }) {
  // The owner is bound into the seal: a sealed token copied onto another owner's row does not open.
  const context = (ownerId: string) => `drive-refresh:${ownerId}`;
  return {
    async save(ownerId: string, refreshToken: string, at: Date): Promise<void> {
      await deps.sql.query(
        `INSERT INTO drive_connections (owner_id, sealed_refresh_token, connected_at) VALUES ($1, $2, $3)
         ON CONFLICT (owner_id) DO UPDATE SET sealed_refresh_token = EXCLUDED.sealed_refresh_token, connected_at = EXCLUDED.connected_at`,
        [ownerId, deps.secrets.seal(refreshToken, context(ownerId)), at],
      );
    },
    async refreshToken(ownerId: string): Promise<string | undefined> {
      const { rows } = await deps.sql.query<{ sealed_refresh_token: string }>(
        `SELECT sealed_refresh_token FROM drive_connections WHERE owner_id = $1`,
        [ownerId],
      );
      if (!rows[0]) return undefined;
      try {
        return deps.secrets.open(rows[0].sealed_refresh_token, context(ownerId));
      } catch {
        // Sealed under a key since rotated away: as good as no grant; the owner connects again.
        return undefined;
      }
    },
    async forget(ownerId: string): Promise<void> {
      await deps.sql.query(`DELETE FROM drive_connections WHERE owner_id = $1`, [ownerId]);
    },
  };
}
export type DriveConnections = ReturnType<typeof createDriveConnections>;
