import type { Sql } from '../platform/sql/sql.port.js';
import type { ChannelQueries, IntegrationRow } from '@kesher/projections/channels/channels.queries';

/**
 * The webhook's integration lookup, kept for a moment: a chatty chat's deliveries then cost one write
 * each (the recorded event), not a read and a write. Only found connections are kept, and only so many,
 * so probing unknown ids fills nothing.
 *
 * With several API processes, the one that ends a connection tells the others (`shared`: a NOTIFY on
 * `kesher_integration_ended` after its write, which every process LISTENs to and forgets the id on), so a
 * connection ended on one replica is dropped from every cache within the notification's delivery, a few
 * milliseconds; `ttlMs` bounds what a lost notification (a listener reconnecting) can leave behind. The
 * worker, which reads the live connection, ignores a delivery recorded in that moment anyway.
 */
export const INTEGRATION_ENDED_CHANNEL = 'kesher_integration_ended';

export function cachedIntegrations(
  queries: Pick<ChannelQueries, 'integration'>,
  options: {
    ttlMs?: number;
    max?: number;
    now?: () => number;
    shared?: Pick<Sql, 'query' | 'listen'>;
    onError?: (error: unknown) => void;
  } = {},
): Pick<ChannelQueries, 'integration'> & {
  forget(integrationId: string): void;
  ended(integrationId: string): Promise<void>;
  listen(): Promise<() => Promise<void>>;
} {
  const ttlMs = options.ttlMs ?? 2000;
  const max = options.max ?? 10_000;
  const now = options.now ?? Date.now;
  const kept = new Map<string, { row: IntegrationRow; until: number }>();
  const forget = (integrationId: string) => void kept.delete(integrationId);
  return {
    /** Drops a connection from this process's cache. */
    forget,
    /** A connection was ended (its write is done): dropped here at once, and in every other process by NOTIFY. */
    async ended(integrationId) {
      forget(integrationId);
      await options.shared
        ?.query(`SELECT pg_notify($1, $2)`, [INTEGRATION_ENDED_CHANNEL, integrationId])
        .catch((error) => options.onError?.(error));
    },
    /** Follows the other processes' ends (before serving webhooks); resolves to a stop function. */
    async listen() {
      if (!options.shared) return async () => {};
      return options.shared.listen(INTEGRATION_ENDED_CHANNEL, forget);
    },
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
