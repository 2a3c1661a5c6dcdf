import { addressKey } from '../../identity/login-throttle.js';

export interface PublicChatLimitsOptions {
  /** Messages one visitor session may post per minute (a person typing never comes near it). */
  perVisitorPerMinute: number;
  /** Messages one address may post per minute, whatever session tokens it makes up. */
  perAddressPerMinute: number;
  /** Messages all visitors of one share link together may post per minute. */
  perLinkPerMinute: number;
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

/**
 * Rate limits on visitors' messages, which count against the assistant owner's monthly plan: without
 * them one visitor spent a whole month's messages in a second. Token buckets: each kind allows a burst
 * of its per-minute figure and then refills steadily, so a conversation at human pace never notices,
 * while a script is held to the rate. A visitor is limited by session and, since session tokens are
 * free to make up, by address too; the share link's bucket caps many visitors (or addresses) together.
 *
 * In memory, per API process, like the login throttle.
 */
export function createPublicChatLimits(options: PublicChatLimitsOptions) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 100_000;
  const kinds = {
    visitor: { perMinute: options.perVisitorPerMinute, buckets: new Map<string, Bucket>() },
    address: { perMinute: options.perAddressPerMinute, buckets: new Map<string, Bucket>() },
    link: { perMinute: options.perLinkPerMinute, buckets: new Map<string, Bucket>() },
  };

  function level(kind: (typeof kinds)[keyof typeof kinds], key: string, at: number): Bucket {
    const bucket = kind.buckets.get(key);
    if (!bucket) return { tokens: kind.perMinute, at };
    return { tokens: Math.min(kind.perMinute, bucket.tokens + ((at - bucket.at) * kind.perMinute) / 60_000), at };
  }

  return {
    /**
     * Takes one message from every bucket the post draws on, or none: 0 when it may be posted, else the
     * milliseconds until it could be.
     */
    take(post: PublicPost): number {
      const at = now();
      const draws = [
        [kinds.visitor, post.sessionHash],
        [kinds.address, addressKey(post.ip)],
        [kinds.link, post.assistantId],
      ] as const;
      const levels = draws.map(([kind, key]) => level(kind, key, at));
      const waits = levels.map((bucket, i) => (bucket.tokens >= 1 ? 0 : Math.ceil(((1 - bucket.tokens) * 60_000) / draws[i]![0].perMinute)));
      const wait = Math.max(...waits);
      if (wait > 0) return wait;
      draws.forEach(([kind, key], i) => {
        kind.buckets.delete(key);
        kind.buckets.set(key, { tokens: levels[i]!.tokens - 1, at });
        while (kind.buckets.size > maxEntries) kind.buckets.delete(kind.buckets.keys().next().value!);
      });
      return 0;
    },
  };
}
export type PublicChatLimits = ReturnType<typeof createPublicChatLimits>;
