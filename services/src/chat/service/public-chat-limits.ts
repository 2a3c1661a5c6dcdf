import { addressKey } from '../../identity/login-throttle.js';

export interface PublicChatLimitsOptions {
  /** Messages one visitor session may post per minute (a person typing never comes near it). */
  perVisitorPerMinute: number;
  /** Messages one address may post per minute, whatever session tokens it makes up. */
  perAddressPerMinute: number;
  /** Messages all visitors of one share link together may post per minute. */
  perLinkPerMinute: number;
  /** Conversations one address may start per hour (absent: no limit; a visitor starts one on their first message). */
  threadsPerAddressPerHour?: number;
  now?: () => number;
  /** Most buckets kept per kind; the least recently used go first beyond it. */
  maxEntries?: number;
}

export interface PublicPost {
  sessionHash: string;
  ip: string;
  assistantId: string;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** One kind of bucket: a burst of `capacity`, refilled steadily at `capacity` per `windowMs`. */
interface Kind {
  capacity: number;
  windowMs: number;
  buckets: Map<string, Bucket>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Rate limits on visitors, whose messages count against the assistant owner's monthly plan: without
 * them one visitor spent a whole month's messages in a second. Token buckets: each kind allows a burst
 * of its figure and then refills steadily, so a conversation at human pace never notices, while a script
 * is held to the rate. A visitor is limited by session and, since session tokens are free to make up,
 * by address too; the share link's bucket caps many visitors (or addresses) together. Starting
 * conversations has its own bucket per address: each start is a stored thread, and one address once
 * opened 80 empty ones (issue 21 item 13).
 *
 * In memory, per API process, like the login throttle.
 */
export function createPublicChatLimits(options: PublicChatLimitsOptions) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 100_000;
  const kind = (capacity: number, windowMs: number): Kind => ({ capacity, windowMs, buckets: new Map() });
  const kinds = {
    visitor: kind(options.perVisitorPerMinute, MINUTE),
    address: kind(options.perAddressPerMinute, MINUTE),
    link: kind(options.perLinkPerMinute, MINUTE),
    starts: options.threadsPerAddressPerHour === undefined ? undefined : kind(options.threadsPerAddressPerHour, HOUR),
  };

  function level(kind: Kind, key: string, at: number): Bucket {
    const bucket = kind.buckets.get(key);
    if (!bucket) return { tokens: kind.capacity, at };
    return { tokens: Math.min(kind.capacity, bucket.tokens + ((at - bucket.at) * kind.capacity) / kind.windowMs), at };
  }

  /** Takes one token from every bucket drawn on, or none: 0 when allowed, else the milliseconds until it would be. */
  function take(draws: readonly (readonly [Kind, string])[]): number {
    const at = now();
    const levels = draws.map(([kind, key]) => level(kind, key, at));
    const waits = levels.map((bucket, i) => (bucket.tokens >= 1 ? 0 : Math.ceil(((1 - bucket.tokens) * draws[i]![0].windowMs) / draws[i]![0].capacity)));
    const wait = Math.max(...waits);
    if (wait > 0) return wait;
    draws.forEach(([kind, key], i) => {
      kind.buckets.delete(key);
      kind.buckets.set(key, { tokens: levels[i]!.tokens - 1, at });
      while (kind.buckets.size > maxEntries) kind.buckets.delete(kind.buckets.keys().next().value!);
    });
    return 0;
  }

  return {
    /** A message: 0 when it may be posted, else the milliseconds until it could be. */
    take(post: PublicPost): number {
      return take([
        [kinds.visitor, post.sessionHash],
        [kinds.address, addressKey(post.ip)],
        [kinds.link, post.assistantId],
      ]);
    },
    /** A new conversation from `ip`: 0 when it may start, else the milliseconds until it could. */
    start(ip: string): number {
      return kinds.starts ? take([[kinds.starts, addressKey(ip)]]) : 0;
    },
  };
}
export type PublicChatLimits = ReturnType<typeof createPublicChatLimits>;
