import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { CounterTake, LimitCounters } from './limit-counters.js';
import { hashedLimitKey } from './limit-key.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * What @fastify/rate-limit gives `child()` at run time: the route's merged limit options, with the route
 * itself under `routeInfo` (its typings say the route options; read both shapes).
 */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string; path?: string };
  method?: string | string[];
  url?: string;
  path?: string;
}

/**
 * A @fastify/rate-limit store on the shared counters (limit-counters.ts), so the API-wide and per-route
 * limits hold across API processes instead of each process keeping its own LRU. Same window rule as the
 * plugin's own store: a key's window starts at its first request. Like the plugin's store, a route with
 * its own `rateLimit` options counts in its own space (the route is part of the key); routes on the
 * global options share one counter per key. Keys name addresses, so they are stored hashed.
 */
export function sqlRateLimitStore(
  counters: LimitCounters,
  prefix = 'http',
  options: { now?: () => number } = {},
): FastifyRateLimitStoreCtor {
  const leases = createLimitLeases(counters, options.now);
  class SqlRateLimitStore {
    readonly space: string;
    constructor(_options?: unknown, space: string = prefix) {
      this.space = space;
    }

    incr(key: string, callback: Callback, timeWindow: number, max?: number) {
      leases.take(hashedLimitKey(this.space, key), timeWindow, typeof max === 'number' ? max : undefined).then(
        (taken) => callback(null, { current: taken.count, ttl: taken.ttlMs }),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: Callback) {
      counters.read(hashedLimitKey(this.space, key)).then(
        (taken) => callback(null, { current: taken.count, ttl: taken.ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(options: object) {
      const given = options as ChildOptions;
      const route = given.routeInfo ?? given;
      const method = Array.isArray(route?.method) ? route.method.join(',') : (route?.method ?? '');
      return new SqlRateLimitStore(undefined, `${prefix}:${method} ${route?.url ?? route?.path ?? ''}`);
    }
  }
  return SqlRateLimitStore;
}

/** A lease is this share of a limit (at least one): the API-wide 600 a minute leases 6 at a time. */
const LEASE_SHARE = 100;
/** Keys with a lease held at once per process; the oldest go first (they only cost a take again). */
const LEASES_KEPT = 10_000;

interface Lease {
  /** The window's end, as the shared counter said when the lease was taken (ms, this process's clock). */
  endsAt: number;
  /** The next place in the window this lease gives out, and the last it holds. */
  next: number;
  last: number;
}

/**
 * Counting a request is a round trip to the shared counter; at the API-wide figure (600 a minute) every
 * request paid it. A process takes places in a key's window a few at a time instead (a lease: 1 % of the
 * limit, at least one) and gives them out in order; each request still gets a place of its own in the
 * shared window, so together the processes never let more through than the limit — a lease a process
 * does not use up is counted all the same, so near the limit a key may be refused up to (lease - 1) per
 * process early, never late. Small limits (sign-in, sign-up: under 200) lease one place: exact.
 */
export function createLimitLeases(counters: Pick<LimitCounters, 'take'>, now: () => number = Date.now) {
  const leases = new Map<string, Lease>();
  const taking = new Map<string, Promise<unknown>>();

  function fromLease(key: string, at: number): CounterTake | undefined {
    const lease = leases.get(key);
    if (!lease || at >= lease.endsAt || lease.next > lease.last) return undefined;
    return { count: lease.next++, ttlMs: lease.endsAt - at };
  }

  async function take(key: string, windowMs: number, max?: number): Promise<CounterTake> {
    const size = max === undefined ? 1 : Math.max(1, Math.floor(max / LEASE_SHARE));
    for (;;) {
      const at = now();
      const leased = fromLease(key, at);
      if (leased) return leased;
      // One take per key at a time: requests arriving meanwhile share what it brings.
      const pending = taking.get(key);
      if (pending) {
        await pending.catch(() => undefined);
        continue;
      }
      const work = counters.take(key, windowMs, size);
      taking.set(key, work);
      try {
        const taken = await work;
        const lease = { endsAt: at + taken.ttlMs, next: taken.count - size + 1, last: taken.count };
        leases.delete(key);
        leases.set(key, lease);
        if (leases.size > LEASES_KEPT) leases.delete(leases.keys().next().value!);
        return { count: lease.next++, ttlMs: taken.ttlMs };
      } finally {
        taking.delete(key);
      }
    }
  }
  return { take };
}
