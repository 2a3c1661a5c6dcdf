import { isIPv6 } from 'node:net';

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
 * Kept in memory, bounded: one API process guards itself (several processes each apply the same rules,
 * which multiplies the allowances by their number — noted in docs/identity.md).
 */
export interface LoginThrottleOptions {
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
  /** Most entries kept per table; the oldest are dropped beyond it. */
  maxEntries?: number;
}

interface Failures {
  count: number;
  last: number;
}

/** The address as counted: IPv4 (also when IPv4-mapped), or an IPv6 address's /64 prefix. */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export function createLoginThrottle(options: LoginThrottleOptions = {}) {
  const now = options.now ?? Date.now;
  const baseDelayMs = options.baseDelayMs ?? 30_000;
  const maxDelayMs = options.maxDelayMs ?? 15 * 60_000;
  const forgetAfterMs = options.forgetAfterMs ?? 60 * 60_000;
  const freePair = options.freePerAccountAndAddress ?? 5;
  const freeAddress = options.freePerAddress ?? 20;
  const freeAccount = options.freePerAccount ?? 10;
  const distributed = options.distributedAddresses ?? 3;
  const maxEntries = options.maxEntries ?? 100_000;

  const pairs = new Map<string, Failures>();
  const addresses = new Map<string, Failures>();
  /** Per account: its failures by address. */
  const accounts = new Map<string, Map<string, Failures>>();
  /** Per account: the addresses it signed in from successfully. */
  const trusted = new Map<string, Map<string, number>>();

  const delayFor = (count: number, free: number) => (count < free ? 0 : Math.min(maxDelayMs, baseDelayMs * 2 ** (count - free)));
  const fresh = (entry: Failures | undefined, at: number) => entry !== undefined && at - entry.last < Math.max(forgetAfterMs, maxDelayMs);
  const remaining = (count: number, last: number, free: number, at: number) => Math.max(0, last + delayFor(count, free) - at);

  /** Map insertion order is age order: a touched key moves to the end, the oldest go first when full. */
  function touch<V>(map: Map<string, V>, key: string, value: V) {
    map.delete(key);
    map.set(key, value);
    while (map.size > maxEntries) map.delete(map.keys().next().value!);
  }
  function bump(map: Map<string, Failures>, key: string, at: number) {
    const entry = map.get(key);
    touch(map, key, { count: fresh(entry, at) ? entry!.count + 1 : 1, last: at });
  }

  /** The account's failures from addresses other than `except`, if they come from enough of them. */
  function othersFailures(email: string, except: string, at: number): Failures | undefined {
    const byAddress = accounts.get(email);
    if (!byAddress) return undefined;
    let count = 0;
    let last = 0;
    let distinct = 0;
    for (const [address, entry] of byAddress) {
      if (address === except || !fresh(entry, at)) continue;
      distinct++;
      count += entry.count;
      last = Math.max(last, entry.last);
    }
    return distinct >= distributed ? { count, last } : undefined;
  }

  return {
    /** How long this attempt must wait, in ms; 0 when it may go ahead. */
    retryAfterMs(email: string, ip: string): number {
      const at = now();
      const address = addressKey(ip);
      const waits = [0];
      const pair = pairs.get(`${email}|${address}`);
      if (fresh(pair, at)) waits.push(remaining(pair!.count, pair!.last, freePair, at));
      const fromAddress = addresses.get(address);
      if (fresh(fromAddress, at)) waits.push(remaining(fromAddress!.count, fromAddress!.last, freeAddress, at));
      if (!trusted.get(email)?.has(address)) {
        const others = othersFailures(email, address, at);
        if (others) waits.push(remaining(others.count, others.last, freeAccount, at));
      }
      return Math.max(...waits);
    },

    recordFailure(email: string, ip: string) {
      const at = now();
      const address = addressKey(ip);
      bump(pairs, `${email}|${address}`, at);
      bump(addresses, address, at);
      const byAddress = accounts.get(email) ?? new Map<string, Failures>();
      bump(byAddress, address, at);
      touch(accounts, email, byAddress);
    },

    /**
     * The owner got in: this address is theirs from now on, and the guesses at their account stop
     * counting. The address's own count stays (one valid account must not launder stuffing from it).
     */
    recordSuccess(email: string, ip: string) {
      const address = addressKey(ip);
      pairs.delete(`${email}|${address}`);
      accounts.delete(email);
      const known = trusted.get(email) ?? new Map<string, number>();
      touch(known, address, now());
      while (known.size > 20) known.delete(known.keys().next().value!);
      touch(trusted, email, known);
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
