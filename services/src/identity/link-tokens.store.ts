import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../platform/sql/sql.port.js';

/** What a mailed link lets its holder do. */
export type LinkPurpose = 'verify-email' | 'reset-password';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The one-time tokens of the links identity mails. Like sessions they are not domain facts: the link
 * is a capability, what it is used for is (AccountEmailVerified, AccountPasswordReset). A token is
 * 32 random bytes; only its hash is stored. Spending one is a single conditional UPDATE, so of two
 * requests with the same link — in one process or several — exactly one gets it, and an expired or
 * spent token gets nothing. Times come from the caller's clock (tests move it; the database's does not).
 */
export function createLinkTokens(deps: { sql: Sql }) {
  return {
    async issue(link: {
      purpose: LinkPurpose;
      accountId: string;
      email: string;
      ttlSeconds: number;
      now: Date;
    }): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(link.now.getTime() + link.ttlSeconds * 1000);
      await deps.sql.query(
        `INSERT INTO link_tokens (token_hash, purpose, account_id, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [hashOf(token), link.purpose, link.accountId, link.email, link.now, expiresAt],
      );
      // Links a day past their expiry are of no use to anyone, not even to tell "expired" from "unknown".
      await deps.sql.query(`DELETE FROM link_tokens WHERE expires_at < $1`, [
        new Date(link.now.getTime() - 24 * 3600_000),
      ]);
      return token;
    },
    /** Spends a token: the account and address it was issued for, or undefined if unknown, expired, spent or for another purpose. */
    async spend(
      token: string,
      purpose: LinkPurpose,
      now: Date,
    ): Promise<{ accountId: string; email: string } | undefined> {
      const { rows } = await deps.sql.query<{ account_id: string; email: string }>(
        `UPDATE link_tokens SET used_at = $3
          WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
          RETURNING account_id, email`,
        [hashOf(token), purpose, now],
      );
      return rows[0] && { accountId: rows[0].account_id, email: rows[0].email };
    },
    /** How many links of this purpose the account was sent since `since` (the mail throttle). */
    async issuedSince(accountId: string, purpose: LinkPurpose, since: Date): Promise<number> {
      const { rows } = await deps.sql.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM link_tokens WHERE account_id = $1 AND purpose = $2 AND created_at > $3`,
        [accountId, purpose, since],
      );
      return Number(rows[0]?.n ?? 0);
    },
    /** Ends every unspent link of this purpose (a completed reset makes the account's other reset links useless). */
    async discard(accountId: string, purpose: LinkPurpose, now: Date) {
      await deps.sql.query(
        `UPDATE link_tokens SET used_at = $3 WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL`,
        [accountId, purpose, now],
      );
    },
  };
}
export type LinkTokens = ReturnType<typeof createLinkTokens>;
