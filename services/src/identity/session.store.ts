import type { Sql } from '../platform/sql/sql.port.js';

export interface SignedInAccount {
  id: string;
  email: string;
  displayName: string | null;
  photoUrl: string | null;
  provider: string;
  /** Whether the address is proven (verification or reset link, or Google). */
  emailVerified: boolean;
  /** Password resets so far: tokens carry the generation they were issued in (see accountForToken). */
  sessionGeneration: number;
}

interface AccountRow {
  id: string;
  email: string;
  display_name: string | null;
  photo_url: string | null;
  provider: string;
  password_hash: string | null;
  email_verified: boolean;
  session_generation: number;
  revoked: boolean;
}

const toAccount = (row: AccountRow): SignedInAccount => ({
  id: row.id,
  email: row.email,
  displayName: row.display_name,
  photoUrl: row.photo_url,
  provider: row.provider,
  emailVerified: row.email_verified,
  sessionGeneration: row.session_generation,
});

/**
 * Sessions are not domain facts: signed tokens carry them, and this table only remembers the ids of
 * tokens signed out before they expire (identity.migrations.ts). Accounts themselves are read from the
 * `accounts` read model.
 */
export async function createSessionStore(deps: { sql: Sql }) {
  return {
    /**
     * The account a token signs in, unless the token was signed out, was issued before the account's
     * latest password reset (an older generation), or its account lost its address (no row).
     */
    async accountForToken(accountId: string, tokenId: string, generation: number): Promise<SignedInAccount | undefined> {
      const { rows } = await deps.sql.query<AccountRow>(
        `SELECT a.*, EXISTS (SELECT 1 FROM revoked_tokens r WHERE r.token_id = $2) AS revoked FROM accounts a WHERE a.id = $1`,
        [accountId, tokenId],
      );
      const row = rows[0];
      return row && !row.revoked && row.session_generation === generation ? toAccount(row) : undefined;
    },
    async accountByEmail(email: string): Promise<(SignedInAccount & { passwordHash: string | null }) | undefined> {
      const { rows } = await deps.sql.query<AccountRow>(`SELECT a.*, false AS revoked FROM accounts a WHERE a.email = $1`, [email]);
      return rows[0] && { ...toAccount(rows[0]), passwordHash: rows[0].password_hash };
    },
    async revoke(tokenId: string, expiresAt: Date) {
      await deps.sql.query(`INSERT INTO revoked_tokens (token_id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [tokenId, expiresAt]);
      // Expired tokens are refused by their signature check anyway; keep the table small.
      await deps.sql.query(`DELETE FROM revoked_tokens WHERE expires_at < now()`);
    },
  };
}
export type SessionStore = Awaited<ReturnType<typeof createSessionStore>>;
