import type { IntegrationRow } from '@kesher/projections/channels/channels.queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoReplicas } from '../platform/limits/testing/replicas.js';
import { waitUntil } from '../testing/processes.js';
import { postgresAvailability } from '../testing/test-database.js';
import { cachedIntegrations } from './integration-cache.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)('the webhook integration cache across two API processes', () => {
  let replicas: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    replicas = await twoReplicas();
  });
  afterAll(async () => replicas?.close());

  it('a connection ended on A is dropped from B’s cache by NOTIFY, long before B’s time to keep it runs out', async () => {
    let active = true;
    const lookup = { integration: async (id: string) => ({ integration_id: id, active }) as IntegrationRow };
    const a = cachedIntegrations(lookup, { shared: replicas.a, ttlMs: 600_000 });
    const b = cachedIntegrations(lookup, { shared: replicas.b, ttlMs: 600_000 });
    const stop = await b.listen();
    try {
      expect((await b.integration('int_1'))?.active).toBe(true);
      active = false;
      // Kept: B has not been told yet.
      expect((await b.integration('int_1'))?.active).toBe(true);
      await a.ended('int_1');
      await waitUntil(async () => (await b.integration('int_1'))?.active === false, {
        timeoutMs: 30_000,
        what: 'B to drop the ended connection',
      });
    } finally {
      await stop();
    }
  });
});
