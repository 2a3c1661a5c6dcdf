import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { LimitCounters } from './limit-counters.js';
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
export function sqlRateLimitStore(counters: LimitCounters, prefix = 'http'): FastifyRateLimitStoreCtor {
  class SqlRateLimitStore {
    readonly space: string;
    constructor(_options?: unknown, space: string = prefix) {
      this.space = space;
    }

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

    child(options: object) {
      const given = options as ChildOptions;
      const route = given.routeInfo ?? given;
      const method = Array.isArray(route?.method) ? route.method.join(',') : (route?.method ?? '');
      return new SqlRateLimitStore(undefined, `${prefix}:${method} ${route?.url ?? route?.path ?? ''}`);
    }
  }
  return SqlRateLimitStore;
}
