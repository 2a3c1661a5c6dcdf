import type { AccountRegistered, RecordedEvent } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';

/** Accounts by e-mail, for sign-in. */
export const accountsProjection: Projection = {
  name: 'accounts',
  version: 2,
  eventTypes: ['AccountRegistered'],
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
  ],
  async apply(db, events) {
    for (const event of events as RecordedEvent<'AccountRegistered', AccountRegistered>[]) {
      const { accountId, email, displayName, passwordHash, provider, photoUrl } = event.data;
      // A second account claiming an e-mail already taken is a recorded fact we cannot refuse here:
      // keep the first owner of the address (the facade prevents this in normal operation).
      await db.query(
        `INSERT INTO accounts (id, email, display_name, password_hash, provider, photo_url, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [accountId, email, displayName, passwordHash, provider, photoUrl ?? null, event.metadata.timestamp],
      );
    }
  },
};
