import { describe, expect, it } from 'vitest';
import { createLimitLeases } from './rate-limit-store.js';

/** The shared counter as limit-counters.ts keeps it (fixed windows from the first take), counting its takes. */
function sharedCounter(now: () => number) {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let takes = 0;
  return {
    takes: () => takes,
    async take(key: string, windowMs: number, by = 1) {
      takes++;
      const at = now();
      let window = windows.get(key);
      if (!window || window.endsAt <= at) windows.set(key, (window = { count: 0, endsAt: at + windowMs }));
      window.count += by;
      return { count: window.count, ttlMs: window.endsAt - at };
    },
  };
}

describe('limit leases', () => {
  it('gives every request its own place in the window, asking the shared counter once per lease', async () => {
    const clock = 0;
    const counter = sharedCounter(() => clock);
    const leases = createLimitLeases(counter, () => clock);
    const places = [];
    for (let i = 0; i < 600; i++) places.push((await leases.take('ip:1', 60_000, 600)).count);
    expect(places).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
    expect(counter.takes()).toBe(100);
  });

  it('never lets two processes together through more than the limit, however their requests interleave', async () => {
    const clock = 0;
    const counter = sharedCounter(() => clock);
    const [a, b] = [createLimitLeases(counter, () => clock), createLimitLeases(counter, () => clock)];
    const allowed = { a: 0, b: 0 };
    for (let i = 0; i < 900; i++) {
      const which = (i * 7) % 3 === 0 ? 'a' : 'b';
      if ((await (which === 'a' ? a : b).take('ip:2', 60_000, 600)).count <= 600) allowed[which]++;
    }
    expect(allowed.a + allowed.b).toBeLessThanOrEqual(600);
    // At most a lease short per process (6 places each).
    expect(allowed.a + allowed.b).toBeGreaterThanOrEqual(600 - 2 * 5);
  });

  it('counts exactly for small limits, and starts again with the next window', async () => {
    let clock = 0;
    const counter = sharedCounter(() => clock);
    const [a, b] = [createLimitLeases(counter, () => clock), createLimitLeases(counter, () => clock)];
    const counts = [];
    for (let i = 0; i < 5; i++) counts.push((await (i % 2 ? a : b).take('auth:1', 60_000, 3)).count);
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    clock = 60_001;
    expect(await a.take('auth:1', 60_000, 3)).toEqual({ count: 1, ttlMs: 60_000 });
  });

  it('shares one take between requests that arrive together, each with its own place', async () => {
    const counter = sharedCounter(() => 0);
    const leases = createLimitLeases(counter, () => 0);
    const places = await Promise.all(Array.from({ length: 6 }, () => leases.take('ip:3', 60_000, 600)));
    expect(places.map((p) => p.count).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(counter.takes()).toBe(1);
  });

  it('passes a failed take to the request that waited for it, and takes again for the next', async () => {
    let fail = true;
    const leases = createLimitLeases({
      take: async (_key: string, windowMs: number, by = 1) => {
        if (fail) throw new Error('connection refused');
        return { count: by, ttlMs: windowMs };
      },
    });
    await expect(leases.take('ip:4', 60_000, 600)).rejects.toThrow('connection refused');
    fail = false;
    expect((await leases.take('ip:4', 60_000, 600)).count).toBe(1);
  });
});
