import type { IntegrationRow } from '@kesher/projections/channels/channels.queries';
import { describe, expect, it } from 'vitest';
import { cachedIntegrations } from './integration-cache.js';

const row = (id: string, active = true) => ({ integration_id: id, active }) as IntegrationRow;

describe('the webhook integration cache', () => {
  it('keeps a found connection for a moment, re-reads it after, and drops one this process ended', async () => {
    let now = 0;
    let reads = 0;
    let active = true;
    const cache = cachedIntegrations(
      { integration: async (id) => (reads++, id === 'int_known' ? row(id, active) : undefined) },
      { ttlMs: 1000, now: () => now },
    );
    expect((await cache.integration('int_known'))?.active).toBe(true);
    active = false;
    expect((await cache.integration('int_known'))?.active).toBe(true);
    expect(reads).toBe(1);
    now = 1001;
    expect((await cache.integration('int_known'))?.active).toBe(false);
    active = true;
    await cache.integration('int_known');
    cache.forget('int_known');
    active = false;
    expect((await cache.integration('int_known'))?.active).toBe(false);
  });

  it('never keeps an unknown id, and holds at most `max` connections', async () => {
    let reads = 0;
    const cache = cachedIntegrations(
      { integration: async (id) => (reads++, id.startsWith('int_') ? row(id) : undefined) },
      { max: 2 },
    );
    await cache.integration('nope');
    await cache.integration('nope');
    expect(reads).toBe(2);
    await cache.integration('int_a');
    await cache.integration('int_b');
    await cache.integration('int_c');
    reads = 0;
    await cache.integration('int_a');
    expect(reads).toBe(1);
  });
});
