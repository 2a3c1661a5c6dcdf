import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPglite, postgresAvailability } from '../../testing/test-database.js';
import { createLimitBuckets } from './limit-buckets.js';
import { createLimitCounters } from './limit-counters.js';
import { twoReplicas } from './testing/replicas.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)('shared limits across two processes (two pools on one Postgres database)', () => {
  let replicas: Awaited<ReturnType<typeof twoReplicas>>;
  let now = 1_000_000;
  const clock = () => now;
  beforeAll(async () => {
    replicas = await twoReplicas();
  });
  afterAll(async () => replicas?.close());

  it('a fixed-window counter counts both processes’ takes once each, also when they race, and starts again after its window', async () => {
    const a = createLimitCounters({ sql: replicas.a, now: clock });
    const b = createLimitCounters({ sql: replicas.b, now: clock });
    const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take('c:race', 60_000)));
    expect(takes.map((t) => t.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await b.read('c:race')).count).toBe(40);
    now += 30_000;
    expect(await a.take('c:race', 60_000)).toEqual({ count: 41, ttlMs: 30_000 });
    now += 30_000;
    expect(await b.take('c:race', 60_000)).toEqual({ count: 1, ttlMs: 60_000 });
  });

  it('a bucket of 20 an hour lets 20 through across both processes and refuses the 21st on either, with the wait', async () => {
    const a = createLimitBuckets({ sql: replicas.a, now: clock });
    const b = createLimitBuckets({ sql: replicas.b, now: clock });
    const draw = [{ key: 'b:starts', capacity: 20, windowMs: 3_600_000 }];
    const waits = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).take(draw)));
    expect(waits.filter((w) => w === 0)).toHaveLength(20);
    expect(await a.take(draw)).toBe(180_000);
    expect(await b.take(draw)).toBe(180_000);
    now += 180_000;
    expect(await b.take(draw)).toBe(0);
    expect(await a.take(draw)).toBe(180_000);
  });

  it('a take on several buckets draws on all or none: a refusal by one leaves the others untouched', async () => {
    const a = createLimitBuckets({ sql: replicas.a, now: clock });
    const b = createLimitBuckets({ sql: replicas.b, now: clock });
    const link = { key: 'b:link', capacity: 2, windowMs: 60_000 };
    expect(await a.take([{ key: 'b:s1', capacity: 5, windowMs: 60_000 }, link])).toBe(0);
    expect(await b.take([{ key: 'b:s2', capacity: 5, windowMs: 60_000 }, link])).toBe(0);
    expect(await a.take([{ key: 'b:s3', capacity: 1, windowMs: 60_000 }, link])).toBe(30_000);
    // s3 was refused with the link: its own single token is still there.
    expect(await b.take([{ key: 'b:s3', capacity: 1, windowMs: 60_000 }])).toBe(0);
  });

  it('a take is one statement outside any transaction, so a hot bucket is held only while the server runs it', async () => {
    const statements: string[] = [];
    const counted = {
      query: ((text: string, params?: readonly unknown[]) => {
        statements.push(text);
        return replicas.a.query(text, params);
      }) as typeof replicas.a.query,
    };
    const buckets = createLimitBuckets({ sql: counted, now: clock });
    const link = { key: 'b:hot-link', capacity: 3, windowMs: 60_000 };
    const waits = [];
    for (let i = 0; i < 4; i++)
      waits.push(await buckets.take([{ key: `b:hot-s${i}`, capacity: 1, windowMs: 60_000 }, link]));
    expect(waits).toEqual([0, 0, 0, 20_000]);
    // The purge may run beside the first take; every other statement is the take's own.
    expect(statements.filter((text) => !text.startsWith('DELETE'))).toHaveLength(4);
    expect(statements.some((text) => /BEGIN|COMMIT/i.test(text))).toBe(false);
    // The refused fourth take left its own new bucket as if never drawn on: it has no row.
    const { rows } = await replicas.a.query<{ key: string }>(
      `SELECT key FROM limit_buckets WHERE key LIKE 'b:hot-s%' ORDER BY key`,
    );
    expect(rows.map((row) => row.key)).toEqual(['b:hot-s0', 'b:hot-s1', 'b:hot-s2']);
  });

  it('keeps its tables unlogged (a take commits without a WAL flush) and the monthly quota logged', async () => {
    const { rows } = await replicas.a.query<{ relname: string; relpersistence: string }>(
      `SELECT relname, relpersistence FROM pg_class WHERE relname IN ('limit_buckets', 'limit_counters', 'quota_holds') ORDER BY relname`,
    );
    expect(rows).toEqual([
      { relname: 'limit_buckets', relpersistence: 'u' },
      { relname: 'limit_counters', relpersistence: 'u' },
      { relname: 'quota_holds', relpersistence: 'p' },
    ]);
  });
});

describe('shared limits on the embedded PGlite (make start)', () => {
  it('counts and draws with the same statements', async () => {
    const sql = await createTestPglite();
    try {
      let now = 0;
      const counters = createLimitCounters({ sql, now: () => now });
      const buckets = createLimitBuckets({ sql, now: () => now });
      expect(await counters.take('c', 1000)).toEqual({ count: 1, ttlMs: 1000 });
      expect(await counters.take('c', 1000)).toEqual({ count: 2, ttlMs: 1000 });
      const draw = [
        { key: 'b', capacity: 2, windowMs: 1000 },
        { key: 'a', capacity: 5, windowMs: 1000 },
      ];
      expect([await buckets.take(draw), await buckets.take(draw), await buckets.take(draw)]).toEqual([0, 0, 500]);
      now += 500;
      expect(await buckets.take(draw)).toBe(0);
    } finally {
      await sql.close();
    }
  });
});
