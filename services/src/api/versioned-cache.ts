/**
 * Remembers a rendered response per key together with the read-model version it was rendered from.
 * A read model's version is its projection checkpoint, which moves whenever the projection applies
 * anything, so an entry is served only while nothing could have changed it — read-your-writes holds
 * because a command waits for the checkpoint to move before it answers.
 */
export function createVersionedCache<T>(options: { maxEntries?: number } = {}) {
  const maxEntries = options.maxEntries ?? 5000;
  const entries = new Map<string, { version: string; value: T }>();
  return {
    get(key: string, version: string): T | undefined {
      const entry = entries.get(key);
      return entry && entry.version === version ? entry.value : undefined;
    },
    set(key: string, version: string, value: T) {
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { version, value });
    },
  };
}
