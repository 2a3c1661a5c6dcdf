/**
 * A flood guard per customer chat: a token bucket per (integration, chat). A chat that floods gets its
 * messages recorded but answered only at the allowed pace; every other chat keeps its own bucket, so one
 * noisy customer never silences the rest. In memory per worker process: an approximate guard against
 * floods, not an accounting (the plan's monthly message limit is that).
 */
export function createChatFloodLimit(options: { perMinute: number; burst?: number; now?: () => number; maxChats?: number }) {
  const now = options.now ?? Date.now;
  const capacity = options.burst ?? Math.max(1, Math.ceil(options.perMinute / 4));
  const refillPerMs = options.perMinute / 60_000;
  const maxChats = options.maxChats ?? 100_000;
  const buckets = new Map<string, { tokens: number; at: number }>();

  return {
    /** True when this chat may be answered now (and takes its token). */
    take(chatKey: string): boolean {
      const t = now();
      const bucket = buckets.get(chatKey) ?? { tokens: capacity, at: t };
      bucket.tokens = Math.min(capacity, bucket.tokens + (t - bucket.at) * refillPerMs);
      bucket.at = t;
      buckets.delete(chatKey);
      buckets.set(chatKey, bucket);
      // The least recently seen chats are forgotten first (a Map iterates in insertion order).
      if (buckets.size > maxChats) buckets.delete(buckets.keys().next().value!);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}
export type ChatFloodLimit = ReturnType<typeof createChatFloodLimit>;
