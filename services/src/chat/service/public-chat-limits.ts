import { addressKey } from '../../identity/index.js';
import type { BucketDraw, LimitBuckets } from '../../platform/limits/limit-buckets.js';
import { hashedLimitKey } from '../../platform/limits/limit-key.js';

export interface PublicChatLimitsOptions {
  /** Messages one visitor session may post per minute (a person typing never comes near it). */
  perVisitorPerMinute: number;
  /** Messages one address may post per minute, whatever session tokens it makes up. */
  perAddressPerMinute: number;
  /** Messages all visitors of one share link together may post per minute. */
  perLinkPerMinute: number;
  /** Conversations one address may start per hour (absent: no limit; a visitor starts one on their first message). */
  threadsPerAddressPerHour?: number;
}

export interface PublicPost {
  sessionHash: string;
  ip: string;
  assistantId: string;
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
 * The buckets are the shared ones in Postgres (platform/limits), so every API process draws on the same
 * allowance: N replicas still let one address start 20 conversations an hour, not 20 × N. A message draws
 * on its three buckets all or none. Sessions and addresses are stored only as hashes.
 */
export function createPublicChatLimits(options: PublicChatLimitsOptions & { buckets: LimitBuckets }) {
  const draw = (kind: string, capacity: number, windowMs: number, value: string): BucketDraw => ({
    key: hashedLimitKey(`public-chat:${kind}`, value),
    capacity,
    windowMs,
  });
  return {
    /** A message: 0 when it may be posted, else the milliseconds until it could be. */
    take(post: PublicPost): Promise<number> {
      return options.buckets.take([
        draw('visitor', options.perVisitorPerMinute, MINUTE, post.sessionHash),
        draw('address', options.perAddressPerMinute, MINUTE, addressKey(post.ip)),
        draw('link', options.perLinkPerMinute, MINUTE, post.assistantId),
      ]);
    },
    /** A new conversation from `ip`: 0 when it may start, else the milliseconds until it could. */
    async start(ip: string): Promise<number> {
      const perHour = options.threadsPerAddressPerHour;
      return perHour === undefined ? 0 : options.buckets.take([draw('starts', perHour, HOUR, addressKey(ip))]);
    },
  };
}
export type PublicChatLimits = ReturnType<typeof createPublicChatLimits>;
