import { defineProjection } from '../shared/typed-projection.js';

/**
 * Accounts by e-mail, for sign-in. `session_generation` counts password resets: a session token
 * carries the generation it was issued in, and one from before the latest reset is refused.
 */
export const accountsProjection = defineProjection({
  name: 'accounts',
  version: 3,
  tables: ['accounts'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS accounts (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  display_name text,
  password_hash text,
  photo_url text,
  provider text NOT NULL,
  created_at timestamptz NOT NULL
);
`,
    },
    {
      id: '002-email-ownership',
      sql: `
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS email_verified boolean NOT NULL DEFAULT false;
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS session_generation integer NOT NULL DEFAULT 0;
`,
    },
  ],
  on: {
    async AccountRegistered(db, event) {
      const { accountId, email, displayName, passwordHash, provider, photoUrl } = event.data;
      // A second account claiming an e-mail already taken is a recorded fact we cannot refuse here:
      // keep the first owner of the address (the facade prevents this in normal operation).
      await db.query(
        `INSERT INTO accounts (id, email, display_name, password_hash, provider, photo_url, created_at, email_verified)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [
          accountId,
          email,
          displayName,
          passwordHash,
          provider,
          photoUrl ?? null,
          event.metadata.timestamp,
          provider === 'google',
        ],
      );
    },
    async AccountEmailVerified(db, event) {
      await db.query(`UPDATE accounts SET email_verified = true WHERE id = $1`, [event.data.accountId]);
    },
    async AccountPasswordReset(db, event) {
      await db.query(
        `UPDATE accounts SET password_hash = $2, session_generation = session_generation + 1 WHERE id = $1`,
        [event.data.accountId, event.data.passwordHash],
      );
    },
    async AccountAddressReleased(db, event) {
      // The account can no longer be found by its address nor signed into by any token; what it
      // owns stays in the log and the other read models, reachable by nobody.
      await db.query(`DELETE FROM accounts WHERE id = $1`, [event.data.accountId]);
    },
    async AccountDeleted(db, event) {
      // Deleted by its owner (DELETE /auth/me): the address is free for a new account.
      await db.query(`DELETE FROM accounts WHERE id = $1`, [event.data.accountId]);
    },
    async SubjectErased(db, event) {
      // An erased account's e-mail and password read "[erased]" in the log: nobody signs in with them.
      if (event.data.subject === 'account' && event.data.ownerId)
        await db.query(`DELETE FROM accounts WHERE id = $1`, [event.data.ownerId]);
    },
  },
});
