import type { ChannelQueries, IntegrationRow } from '@kesher/projections/channels/channels.queries';

/**
 * The webhook's integration lookup, kept for a moment: a chatty chat's deliveries then cost one write
 * each (the recorded event), not a read and a write. A connection ended meanwhile is at most `ttlMs` late
 * here — its deliveries are recorded, and the worker, which reads the live connection, ignores them.
 * Only found connections are kept, and only so many, so probing unknown ids fills nothing.
 */
export function cachedIntegrations(
  queries: Pick<ChannelQueries, 'integration'>,
  options: { ttlMs?: number; max?: number; now?: () => number } = {},
): Pick<ChannelQueries, 'integration'> & { forget(integrationId: string): void } {
  const ttlMs = options.ttlMs ?? 2000;
  const max = options.max ?? 10_000;
  const now = options.now ?? Date.now;
  const kept = new Map<string, { row: IntegrationRow; until: number }>();
  return {
    /** This process ended the connection: its next delivery is not taken from the cache. */
    forget: (integrationId) => void kept.delete(integrationId),
    async integration(integrationId) {
      const hit = kept.get(integrationId);
      if (hit && hit.until > now()) return hit.row;
      const row = await queries.integration(integrationId);
      kept.delete(integrationId);
      if (row) {
        if (kept.size >= max) kept.delete(kept.keys().next().value!);
        kept.set(integrationId, { row, until: now() + ttlMs });
      }
      return row;
    },
  };
}
