import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimitBuckets } from '../../platform/limits/limit-buckets.js';
import { twoReplicas } from '../../platform/limits/testing/replicas.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { createPublicChatLimits, type PublicChatLimitsOptions } from './public-chat-limits.js';

const gate = await postgresAvailability();
const figures: PublicChatLimitsOptions = {
  perVisitorPerMinute: 10,
  perAddressPerMinute: 30,
  perLinkPerMinute: 60,
  threadsPerAddressPerHour: 20,
};

describe.skipIf(!gate.available)('public chat limits, shared by two API processes', () => {
  let replicas: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    replicas = await twoReplicas();
  });
  afterAll(async () => replicas?.close());

  /** Two processes' limits on one database, each in its own key space (a test's own ids), on one clock. */
  let run = 0;
  const setup = () => {
    let now = 0;
    const clock = () => now;
    const prefix = `t${++run}-`;
    const a = createPublicChatLimits({ ...figures, buckets: createLimitBuckets({ sql: replicas.a, now: clock }) });
    const b = createPublicChatLimits({ ...figures, buckets: createLimitBuckets({ sql: replicas.b, now: clock }) });
    const post = (session: string, ip = '203.0.113.1', assistantId = 'a1') => ({
      sessionHash: prefix + session,
      ip: ip.replace(/^203/, `${run % 200}`),
      assistantId: prefix + assistantId,
    });
    return { a, b, post, ip: (ip: string) => ip.replace(/^203/, `${run % 200}`), advance: (ms: number) => (now += ms) };
  };

  it('lets a visitor post a burst of 10, then one every 6 seconds, whichever process it reaches', async () => {
    const { a, b, post, advance } = setup();
    for (let i = 0; i < 10; i++) expect(await (i % 2 ? a : b).take(post('s1'))).toBe(0);
    expect(await a.take(post('s1'))).toBe(6000);
    expect(await b.take(post('s1'))).toBe(6000);
    advance(5999);
    expect(await b.take(post('s1'))).toBe(1);
    advance(1);
    expect(await a.take(post('s1'))).toBe(0);
    expect(await b.take(post('s1'))).toBeGreaterThan(0);
    // Another visitor is not affected.
    expect(await a.take(post('s2', '203.0.113.2'))).toBe(0);
  });

  it('holds an address to 30 a minute across both processes however many session tokens it makes up', async () => {
    const { a, b, post } = setup();
    const taken = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take(post(`session-${i}`))));
    expect(taken.filter((wait) => wait === 0)).toHaveLength(30);
    expect(await b.take(post('fresh', '203.0.113.99'))).toBe(0);
  });

  it('caps all visitors of one share link together at 60 a minute, and counts nothing for a refused post', async () => {
    const { a, b, post, advance } = setup();
    const taken: number[] = [];
    for (let i = 0; i < 65; i++) taken.push(await (i % 2 ? a : b).take(post(`session-${i}`, `198.51.100.${i}`)));
    expect(taken.slice(0, 60).every((wait) => wait === 0)).toBe(true);
    expect(taken.slice(60).every((wait) => wait === 1000)).toBe(true);
    expect(await a.take(post('other-link', '192.0.2.1', 'a2'))).toBe(0);
    // The refused visitors' own buckets were not drawn on: after the link refills they go ahead.
    advance(1000);
    expect(await b.take(post('session-61', '198.51.100.61'))).toBe(0);
  });

  it('lets one address start 20 conversations an hour across both processes, the 21st refused on either, one per 3 minutes after', async () => {
    const { a, b, post, ip, advance } = setup();
    const starts = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).start(ip('203.0.113.7'))));
    expect(starts.filter((wait) => wait === 0)).toHaveLength(20);
    expect(await a.start(ip('203.0.113.7'))).toBe(180_000);
    expect(await b.start(ip('203.0.113.7'))).toBe(180_000);
    expect(await a.start(ip('203.0.113.8'))).toBe(0);
    advance(180_000);
    expect(await b.start(ip('203.0.113.7'))).toBe(0);
    expect(await a.start(ip('203.0.113.7'))).toBeGreaterThan(0);
    // Messages have their own buckets.
    expect(await a.take(post('s', '203.0.113.7'))).toBe(0);
  });
});
