import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimitBuckets } from '../platform/limits/limit-buckets.js';
import { twoReplicas } from '../platform/limits/testing/replicas.js';
import { postgresAvailability } from '../testing/test-database.js';
import { createChatFloodLimit } from './chat-flood-limit.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)('chat flood limit shared by two worker processes', () => {
  let replicas: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    replicas = await twoReplicas();
  });
  afterAll(async () => replicas?.close());

  it('lets a burst through, then the allowed pace, per chat across both workers, without touching other chats', async () => {
    let now = 0;
    const a = createChatFloodLimit({
      perMinute: 12,
      burst: 3,
      buckets: createLimitBuckets({ sql: replicas.a, now: () => now }),
    });
    const b = createChatFloodLimit({
      perMinute: 12,
      burst: 3,
      buckets: createLimitBuckets({ sql: replicas.b, now: () => now }),
    });
    expect([
      await a.take('bot|flooder'),
      await b.take('bot|flooder'),
      await a.take('bot|flooder'),
      await b.take('bot|flooder'),
    ]).toEqual([true, true, true, false]);
    expect(await a.take('bot|flooder')).toBe(false);
    // Another customer is not held back by the flood.
    expect(await b.take('bot|other')).toBe(true);
    // 12 a minute: one more every 5 seconds, on either worker.
    now += 4_999;
    expect(await a.take('bot|flooder')).toBe(false);
    now += 2;
    expect(await b.take('bot|flooder')).toBe(true);
    expect(await a.take('bot|flooder')).toBe(false);
  });

  it('gives back a token taken for a message that was then not answered, on either worker', async () => {
    const now = 0;
    const a = createChatFloodLimit({
      perMinute: 12,
      burst: 2,
      buckets: createLimitBuckets({ sql: replicas.a, now: () => now }),
    });
    const b = createChatFloodLimit({
      perMinute: 12,
      burst: 2,
      buckets: createLimitBuckets({ sql: replicas.b, now: () => now }),
    });
    expect([await a.take('bot|quiet'), await b.take('bot|quiet')]).toEqual([true, true]);
    await a.giveBack('bot|quiet');
    expect([await b.take('bot|quiet'), await a.take('bot|quiet')]).toEqual([true, false]);
  });
});
