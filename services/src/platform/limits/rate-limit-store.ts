import type { LimitCounters } from './limit-counters.js';
import { hashedLimitKey } from './limit-key.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What @fastify/rate-limit gives `child()`: the route's merged options, with the route itself. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string; path?: string };
}

/**
 * A @fastify/rate-limit store on the shared counters (limit-counters.ts), so the API-wide and per-route
 * limits hold across API processes instead of each process keeping its own LRU. Same window rule as the
 * plugin's own store: a key's window starts at its first request. Like the plugin's store, a route with
 * its own `rateLimit` options counts in its own space (the route is part of the key); routes on the
 * global options share one counter per key. Keys name addresses, so they are stored hashed.
 */
export function sqlRateLimitStore(counters: LimitCounters, prefix = 'http') {
  class SqlRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly space: string = prefix,
    ) {}

    incr(key: string, callback: Callback, timeWindow: number) {
      counters.take(hashedLimitKey(this.space, key), timeWindow).then(
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

    child(options: ChildOptions) {
      const route = options.routeInfo;
      const method = Array.isArray(route?.method) ? route.method.join(',') : (route?.method ?? '');
      return new SqlRateLimitStore(undefined, `${prefix}:${method} ${route?.url ?? route?.path ?? ''}`);
    }
  }
  return SqlRateLimitStore;
}
