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

/** A signed-in owner's activity is written at most this often per process (inactivity is counted in months). */
const ACTIVITY_EVERY_MS = 3600_000;
const ACTIVITY_REMEMBERED = 100_000;

/** A floor above every generation: the account's sessions all end for good (it lost its address). */
export const ALL_SESSIONS = 2_147_483_647;

/**
 * Sessions are not domain facts: signed tokens carry them, and two tables remember what ended them early
 * (identity.migrations.ts): the ids of tokens signed out before they expire, and per account the oldest
 * session generation still accepted. Both are written by the process that ends the sessions before it
 * answers, and read on every request by every process, so an end holds at once on every replica.
 * Accounts themselves are read from the `accounts` read model.
 */
export async function createSessionStore(deps: {
  sql: Sql;
  /** The time activity is recorded at (the process's clock; tests move it). */
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  /** When this process last recorded each account's activity: a busy owner costs one write an hour, not one a request. */
  const recorded = new Map<string, number>();

  /**
   * The owner used Kesher now: the inactivity period (privacy/retention) counts from the latest such moment.
   * Never moves backwards (another process may have recorded a later moment).
   */
  async function active(accountId: string, force: boolean) {
    const at = clock();
    const last = recorded.get(accountId);
    if (!force && last !== undefined && at.getTime() - last < ACTIVITY_EVERY_MS && at.getTime() >= last) return;
    await deps.sql.query(
      `INSERT INTO account_activity (account_id, last_active) VALUES ($1, $2)
       ON CONFLICT (account_id) DO UPDATE SET last_active = GREATEST(account_activity.last_active, EXCLUDED.last_active)`,
      [accountId, at.toISOString()],
    );
    recorded.delete(accountId);
    recorded.set(accountId, at.getTime());
    if (recorded.size > ACTIVITY_REMEMBERED) recorded.delete(recorded.keys().next().value!);
  }

  return {
    /**
     * The account a token signs in, unless the token was signed out, was issued before the account's
     * latest password reset (an older generation, by the read model or by the floor the reset wrote), or
     * its account lost its address (no row, or the floor). One round trip.
     */
    async accountForToken(
      accountId: string,
      tokenId: string,
      generation: number,
    ): Promise<SignedInAccount | undefined> {
      const { rows } = await deps.sql.query<AccountRow>(
        `SELECT a.*,
                EXISTS (SELECT 1 FROM revoked_tokens r WHERE r.token_id = $2)
                OR EXISTS (SELECT 1 FROM session_floors f WHERE f.account_id = $1 AND f.min_generation > $3::int) AS revoked
         FROM accounts a WHERE a.id = $1`,
        [accountId, tokenId, generation],
      );
      const row = rows[0];
      if (!row || row.revoked || row.session_generation !== generation) return undefined;
      // A signed-in request is the owner's activity.
      await active(row.id, false);
      return toAccount(row);
    },
    /** A sign-in (password, Google, registration): recorded as the owner's activity at once. */
    signedIn: (accountId: string) => active(accountId, true),
    async accountByEmail(email: string): Promise<(SignedInAccount & { passwordHash: string | null }) | undefined> {
      const { rows } = await deps.sql.query<AccountRow>(
        `SELECT a.*, false AS revoked FROM accounts a WHERE a.email = $1`,
        [email],
      );
      return rows[0] && { ...toAccount(rows[0]), passwordHash: rows[0].password_hash };
    },
    /** Whether the token was signed out, or its generation is below the account's session floor. */
    async ended(accountId: string, tokenId: string, generation: number): Promise<boolean> {
      const { rows } = await deps.sql.query<{ ended: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM revoked_tokens r WHERE r.token_id = $2)
                OR EXISTS (SELECT 1 FROM session_floors f WHERE f.account_id = $1 AND f.min_generation > $3::int) AS ended`,
        [accountId, tokenId, generation],
      );
      return rows[0]?.ended === true;
    },
    /** Ends every session of the account issued in a generation below `generation` (ALL_SESSIONS: every one). */
    async endSessionsBefore(accountId: string, generation: number) {
      await deps.sql.query(
        `INSERT INTO session_floors (account_id, min_generation) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE SET min_generation = GREATEST(session_floors.min_generation, EXCLUDED.min_generation)`,
        [accountId, generation],
      );
    },
    async revoke(tokenId: string, expiresAt: Date) {
      await deps.sql.query(`INSERT INTO revoked_tokens (token_id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
        tokenId,
        expiresAt,
      ]);
      // Expired tokens are refused by their signature check anyway; keep the table small.
      await deps.sql.query(`DELETE FROM revoked_tokens WHERE expires_at < now()`);
    },
  };
}
export type SessionStore = Awaited<ReturnType<typeof createSessionStore>>;
