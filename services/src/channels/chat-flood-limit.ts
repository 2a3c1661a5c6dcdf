import type { LimitBuckets } from '../platform/limits/limit-buckets.js';
import { hashedLimitKey } from '../platform/limits/limit-key.js';

/**
 * A flood guard per customer chat: a token bucket per (integration, chat). A chat that floods gets its
 * messages recorded but answered only at the allowed pace; every other chat keeps its own bucket, so one
 * noisy customer never silences the rest. The buckets are the shared ones in Postgres (platform/limits):
 * a chat's messages are separate streams that any worker process may take, so a bucket per process let
 * each worker answer the flood at the full pace. Chats are stored only as hashes.
 */
export function createChatFloodLimit(options: { perMinute: number; burst?: number; buckets: LimitBuckets }) {
  const capacity = options.burst ?? Math.max(1, Math.ceil(options.perMinute / 4));
  // A bucket of `capacity` refilled at `perMinute`: the window is how long a full refill takes.
  const windowMs = (capacity * 60_000) / options.perMinute;
  const draw = (chatKey: string) => ({ key: hashedLimitKey('channel-chat', chatKey), capacity, windowMs });
  return {
    /** True when this chat may be answered now (and takes its token). */
    async take(chatKey: string): Promise<boolean> {
      return (await options.buckets.take([draw(chatKey)])) === 0;
    },
    /** Gives back a token taken for a message that is then not answered after all (taken over, answered already). */
    async giveBack(chatKey: string): Promise<void> {
      await options.buckets.refund([draw(chatKey)]);
    },
  };
}
export type ChatFloodLimit = ReturnType<typeof createChatFloodLimit>;
