import type { Migration } from '../platform/sql/migrations.js';

/**
 * Identity's own tables: ids of tokens signed out before they expire, and the one-time tokens of the
 * links it mails (accounts are a read model).
 */
export const identityMigrations: readonly Migration[] = [
  {
    id: '001-revoked-tokens',
    sql: `CREATE TABLE IF NOT EXISTS revoked_tokens (
    token_id text PRIMARY KEY,
    expires_at timestamptz NOT NULL
  )`,
  },
  {
    // Only a hash of each link's token is kept: a copy of the table cannot be turned into working links.
    id: '002-link-tokens',
    sql: `CREATE TABLE IF NOT EXISTS link_tokens (
    token_hash text PRIMARY KEY,
    purpose text NOT NULL,
    account_id text NOT NULL,
    email text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  );
  CREATE INDEX IF NOT EXISTS link_tokens_account ON link_tokens (account_id, purpose, created_at)`,
  },
  {
    // The oldest session generation an account still accepts, written by the API process that ended
    // the sessions (a password reset, an address lost) the moment it did: every process checks it on every
    // request, so the end holds at once everywhere, before the accounts read model has caught up.
    id: '003-session-floors',
    sql: `CREATE TABLE IF NOT EXISTS session_floors (
    account_id text PRIMARY KEY,
    min_generation integer NOT NULL
  )`,
  },
  {
    // The sign-in throttle's counts (login-throttle.ts), shared by every API process. Keys are hashes.
    // Per account and address: the pair's failures, and the same failures as guesses at the account
    // (a sign-in forgets the latter for every address, the former only for its own).
    id: '004-login-throttle',
    sql: `CREATE TABLE IF NOT EXISTS login_failures (
    account_key text NOT NULL,
    address_key text NOT NULL,
    pair_count integer NOT NULL,
    account_count integer NOT NULL,
    last_ms double precision NOT NULL,
    PRIMARY KEY (account_key, address_key)
  );
  CREATE INDEX IF NOT EXISTS login_failures_last ON login_failures (last_ms);
  CREATE TABLE IF NOT EXISTS login_address_failures (
    address_key text PRIMARY KEY,
    count integer NOT NULL,
    last_ms double precision NOT NULL
  );
  CREATE INDEX IF NOT EXISTS login_address_failures_last ON login_address_failures (last_ms);
  CREATE TABLE IF NOT EXISTS login_trusted (
    account_key text NOT NULL,
    address_key text NOT NULL,
    at_ms double precision NOT NULL,
    PRIMARY KEY (account_key, address_key)
  )`,
  },
  {
    // When each owner last used Kesher (a sign-in, or any signed-in request, at most once an hour per
    // process): the retention run's inactivity period counts from it (privacy/retention). Ids and a time only.
    id: '005-account-activity',
    sql: `CREATE TABLE IF NOT EXISTS account_activity (
    account_id text PRIMARY KEY,
    last_active timestamptz NOT NULL
  )`,
  },
];
