import { describe, expect, it } from 'vitest';
import { createPublicChatLimits } from './public-chat-limits.js';

describe('public chat limits', () => {
  const setup = () => {
    let now = 0;
    const limits = createPublicChatLimits({ perVisitorPerMinute: 10, perAddressPerMinute: 30, perLinkPerMinute: 60, now: () => now });
    return { limits, advance: (ms: number) => (now += ms) };
  };
  const post = (session: string, ip = '203.0.113.1', assistantId = 'a1') => ({ sessionHash: session, ip, assistantId });

  it('lets a visitor post a burst of 10, then one every 6 seconds', () => {
    const { limits, advance } = setup();
    for (let i = 0; i < 10; i++) expect(limits.take(post('s1'))).toBe(0);
    expect(limits.take(post('s1'))).toBe(6000);
    advance(5999);
    expect(limits.take(post('s1'))).toBe(1);
    advance(1);
    expect(limits.take(post('s1'))).toBe(0);
    expect(limits.take(post('s1'))).toBeGreaterThan(0);
    // Another visitor is not affected.
    expect(limits.take(post('s2', '203.0.113.2'))).toBe(0);
  });

  it('holds an address to 30 a minute however many session tokens it makes up', () => {
    const { limits } = setup();
    const taken = Array.from({ length: 40 }, (_, i) => limits.take(post(`session-${i}`)));
    expect(taken.filter((wait) => wait === 0)).toHaveLength(30);
    expect(limits.take(post('fresh', '203.0.113.99'))).toBe(0);
  });

  it('caps all visitors of one share link together at 60 a minute, and counts nothing for a refused post', () => {
    const { limits, advance } = setup();
    const taken = Array.from({ length: 65 }, (_, i) => limits.take(post(`session-${i}`, `198.51.100.${i}`)));
    expect(taken.slice(0, 60).every((wait) => wait === 0)).toBe(true);
    expect(taken.slice(60).every((wait) => wait === 1000)).toBe(true);
    expect(limits.take(post('other-link', '192.0.2.1', 'a2'))).toBe(0);
    // The refused visitors' own buckets were not drawn on: after the link refills they go ahead.
    advance(1000);
    expect(limits.take(post('session-61', '198.51.100.61'))).toBe(0);
  });
});

describe('public chat limits: starting conversations', () => {
  it('lets an address start a burst of conversations, then one per 3 minutes at 20 an hour; other addresses are not affected', () => {
    let now = 0;
    const limits = createPublicChatLimits({ perVisitorPerMinute: 10, perAddressPerMinute: 30, perLinkPerMinute: 60, threadsPerAddressPerHour: 20, now: () => now });
    const starts = Array.from({ length: 80 }, () => limits.start('203.0.113.7'));
    expect(starts.filter((wait) => wait === 0)).toHaveLength(20);
    expect(starts[20]).toBe(180_000);
    expect(limits.start('203.0.113.8')).toBe(0);
    now += 180_000;
    expect(limits.start('203.0.113.7')).toBe(0);
    expect(limits.start('203.0.113.7')).toBeGreaterThan(0);
    // Messages have their own buckets.
    expect(limits.take({ sessionHash: 's', ip: '203.0.113.7', assistantId: 'a1' })).toBe(0);
  });
});
