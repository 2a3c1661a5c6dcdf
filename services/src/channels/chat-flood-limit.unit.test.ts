import { describe, expect, it } from 'vitest';
import { createChatFloodLimit } from './chat-flood-limit.js';

describe('chat flood limit', () => {
  it('lets a burst through, then the allowed pace, per chat, without touching other chats', () => {
    let now = 0;
    const limit = createChatFloodLimit({ perMinute: 12, burst: 3, now: () => now });
    expect([1, 2, 3, 4].map(() => limit.take('bot|flooder'))).toEqual([true, true, true, false]);
    // Another customer is not held back by the flood.
    expect(limit.take('bot|other')).toBe(true);
    // 12 a minute: one more every 5 seconds.
    now += 4_999;
    expect(limit.take('bot|flooder')).toBe(false);
    now += 2;
    expect(limit.take('bot|flooder')).toBe(true);
    expect(limit.take('bot|flooder')).toBe(false);
  });

  it('forgets the least recently seen chats beyond its size', () => {
    let now = 0;
    const limit = createChatFloodLimit({ perMinute: 1, burst: 1, now: () => now, maxChats: 2 });
    expect(limit.take('a')).toBe(true);
    expect(limit.take('b')).toBe(true);
    expect(limit.take('c')).toBe(true);
    // 'a' was forgotten: it starts afresh (a flood guard, not an account).
    expect(limit.take('a')).toBe(true);
    expect(limit.take('c')).toBe(false);
    now += 1;
  });
});
