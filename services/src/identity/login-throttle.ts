import { isIPv6 } from 'node:net';
import { hashedLimitKey } from '../platform/limits/limit-key.js';
import type { SqlExecutor } from '../platform/sql/sql.port.js';

/**
 * Brute-force protection for sign-in that no stranger can turn against an owner.
 *
 * Failed attempts are counted three ways, each with its own free allowance followed by an exponential
 * backoff (30 s, 1 min, 2 min, … up to 15 min after the latest failure), during which attempts of that
 * kind are refused without checking the password:
 * - one address guessing one account's password (5 free failures);
 * - one address trying many accounts, credential stuffing (20 free failures);
 * - many addresses guessing one account: the account's failures from addresses *other than the one
 *   asking*, once they come from at least 3 distinct addresses (10 free failures).
 *
 * A stranger at one address therefore slows only themselves: the owner signing in from anywhere else
 * is not touched. A distributed guess at one account is slowed for every address the owner has not signed
 * in from before; addresses the account signed in from successfully stay exempt, so even then the owner
 * gets in from home. IPv6 clients are counted by their /64, which one subscriber usually holds whole.
 *
 * The counts are in Postgres (identity.migrations.ts, `login_*` tables), so every API process applies
 * the rules to the same failures: behind a load balancer a guesser gets 5 tries at an account, not 5 per
 * replica. Accounts and addresses are stored only as hashes. A check is one query, a failure one
 * statement; rows no longer counted are deleted now and then.
 */
export interface LoginThrottleOptions {
  sql: SqlExecutor;
  now?: () => number;
  /** The first refusal after the free allowance lasts this long; each further failure doubles it. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Counts are forgotten after this long without a failure. */
  forgetAfterMs?: number;
  freePerAccountAndAddress?: number;
  freePerAddress?: number;
  freePerAccount?: number;
  /** Distinct other addresses the account's failures must come from before the account-wide backoff applies. */
  distributedAddresses?: number;
  /** Addresses remembered per account as the owner's own. */
  trustedPerAccount?: number;
}

/** The address as counted: IPv4 (also when IPv4-mapped), or an IPv6 address's /64 prefix. */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const accountOf = (email: string) => hashedLimitKey('login:account', email);
const addressOf = (ip: string) => hashedLimitKey('login:address', addressKey(ip));

interface CheckRow {
  pair_count: number | null;
  pair_last: number | null;
  address_count: number | null;
  address_last: number | null;
  trusted: boolean;
  others_count: number | string | null;
  others_last: number | null;
  others_distinct: number | string;
}

export function createLoginThrottle(options: LoginThrottleOptions) {
  const { sql } = options;
  const now = options.now ?? Date.now;
  const baseDelayMs = options.baseDelayMs ?? 30_000;
  const maxDelayMs = options.maxDelayMs ?? 15 * 60_000;
  const forgetAfterMs = options.forgetAfterMs ?? 60 * 60_000;
  const freePair = options.freePerAccountAndAddress ?? 5;
  const freeAddress = options.freePerAddress ?? 20;
  const freeAccount = options.freePerAccount ?? 10;
  const distributed = options.distributedAddresses ?? 3;
  const trustedPerAccount = options.trustedPerAccount ?? 20;
  /** A count older than this is forgotten (never before its backoff is over). */
  const freshMs = Math.max(forgetAfterMs, maxDelayMs);

  const delayFor = (count: number, free: number) =>
    count < free ? 0 : Math.min(maxDelayMs, baseDelayMs * 2 ** (count - free));
  const remaining = (count: number, last: number, free: number, at: number) =>
    Math.max(0, last + delayFor(count, free) - at);

  let purgedAt = -Infinity;
  /** Deletes failures no longer counted, at most once per `freshMs` per process (on a failure). */
  async function purge(at: number) {
    if (at - purgedAt < freshMs) return;
    purgedAt = at;
    await sql.query(`DELETE FROM login_failures WHERE last_ms < $1::float8`, [at - freshMs]);
    await sql.query(`DELETE FROM login_address_failures WHERE last_ms < $1::float8`, [at - freshMs]);
  }

  return {
    /** How long this attempt must wait, in ms; 0 when it may go ahead. */
    async retryAfterMs(email: string, ip: string): Promise<number> {
      const at = now();
      const account = accountOf(email);
      const address = addressOf(ip);
      const { rows } = await sql.query<CheckRow>(
        `SELECT p.pair_count, p.last_ms AS pair_last, a.count AS address_count, a.last_ms AS address_last,
                EXISTS (SELECT 1 FROM login_trusted t WHERE t.account_key = $1 AND t.address_key = $2) AS trusted,
                o.count AS others_count, o.last AS others_last, o.n AS others_distinct
         FROM (SELECT 1) one
         LEFT JOIN login_failures p ON p.account_key = $1 AND p.address_key = $2 AND p.pair_count > 0 AND p.last_ms > $3::float8 - $4::float8
         LEFT JOIN login_address_failures a ON a.address_key = $2 AND a.last_ms > $3::float8 - $4::float8
         CROSS JOIN (SELECT sum(account_count) AS count, max(last_ms) AS last, count(*) AS n FROM login_failures
                     WHERE account_key = $1 AND address_key <> $2 AND account_count > 0 AND last_ms > $3::float8 - $4::float8) o`,
        [account, address, at, freshMs],
      );
      const row = rows[0]!;
      const waits = [0];
      if (row.pair_count !== null) waits.push(remaining(Number(row.pair_count), Number(row.pair_last), freePair, at));
      if (row.address_count !== null)
        waits.push(remaining(Number(row.address_count), Number(row.address_last), freeAddress, at));
      if (!row.trusted && Number(row.others_distinct) >= distributed)
        waits.push(remaining(Number(row.others_count), Number(row.others_last), freeAccount, at));
      return Math.max(...waits);
    },

    /** A wrong password (or an unknown address): counted for the pair, the address and the account, in one statement. */
    async recordFailure(email: string, ip: string) {
      const at = now();
      await sql.query(
        `WITH pair AS (
           INSERT INTO login_failures AS f (account_key, address_key, pair_count, account_count, last_ms) VALUES ($1, $2, 1, 1, $3::float8)
           ON CONFLICT (account_key, address_key) DO UPDATE SET
             pair_count = CASE WHEN f.pair_count > 0 AND f.last_ms > $3::float8 - $4::float8 THEN f.pair_count + 1 ELSE 1 END,
             account_count = CASE WHEN f.account_count > 0 AND f.last_ms > $3::float8 - $4::float8 THEN f.account_count + 1 ELSE 1 END,
             last_ms = $3::float8
           RETURNING 1)
         INSERT INTO login_address_failures AS a (address_key, count, last_ms) VALUES ($2, 1, $3::float8)
         ON CONFLICT (address_key) DO UPDATE SET
           count = CASE WHEN a.last_ms > $3::float8 - $4::float8 THEN a.count + 1 ELSE 1 END,
           last_ms = $3::float8`,
        [accountOf(email), addressOf(ip), at, freshMs],
      );
      await purge(at);
    },

    /**
     * The owner got in: this address is theirs from now on, and the guesses at their account stop
     * counting. The address's own count stays (one valid account must not launder stuffing from it), and
     * so do other addresses' guesses at this account's password (a stranger's 5 tries are not renewed).
     */
    async recordSuccess(email: string, ip: string) {
      const at = now();
      const account = accountOf(email);
      const address = addressOf(ip);
      await sql.query(
        `WITH forgotten AS (
           UPDATE login_failures SET account_count = 0, pair_count = CASE WHEN address_key = $2 THEN 0 ELSE pair_count END
           WHERE account_key = $1 RETURNING 1)
         INSERT INTO login_trusted (account_key, address_key, at_ms) VALUES ($1, $2, $3::float8)
         ON CONFLICT (account_key, address_key) DO UPDATE SET at_ms = $3::float8`,
        [account, address, at],
      );
      // The newest few addresses are kept.
      await sql.query(
        `DELETE FROM login_trusted WHERE account_key = $1 AND address_key NOT IN
           (SELECT address_key FROM login_trusted WHERE account_key = $1 ORDER BY at_ms DESC LIMIT $2)`,
        [account, trustedPerAccount],
      );
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
