import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoReplicas } from '../platform/limits/testing/replicas.js';
import { postgresAvailability } from '../testing/test-database.js';
import { createLoginThrottle } from './login-throttle.js';

const gate = await postgresAvailability();
const minute = 60_000;

/**
 * The sign-in throttle's rules, each checked with two API processes (two pools on one database) taking
 * turns: the counts are shared, so the allowances are the single-process ones, not one per replica.
 */
describe.skipIf(!gate.available)('login throttle shared by two API processes', () => {
  let replicas: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    replicas = await twoReplicas();
  });
  afterAll(async () => replicas?.close());

  let run = 0;
  /** Two processes' throttles on one clock; each test's accounts are its own (the database is shared). */
  const setup = () => {
    let now = 0;
    const a = createLoginThrottle({ sql: replicas.a, now: () => now });
    const b = createLoginThrottle({ sql: replicas.b, now: () => now });
    const tag = `t${++run}`;
    let turn = 0;
    return {
      any: () => (turn++ % 2 ? a : b),
      a,
      b,
      email: (name: string) => `${name}-${tag}@x.io`,
      advance: (ms: number) => (now += ms),
    };
  };

  it('slows one address guessing one account after 5 failures in all, with a doubling backoff, and forgets it afterwards', async () => {
    const { any, a, b, email, advance } = setup();
    const owner = email('a');
    for (let i = 0; i < 5; i++) {
      expect(await any().retryAfterMs(owner, '1.1.1.1')).toBe(0);
      await any().recordFailure(owner, '1.1.1.1');
    }
    expect(await a.retryAfterMs(owner, '1.1.1.1')).toBe(30_000);
    expect(await b.retryAfterMs(owner, '1.1.1.1')).toBe(30_000);
    advance(30_000);
    expect(await a.retryAfterMs(owner, '1.1.1.1')).toBe(0);
    await b.recordFailure(owner, '1.1.1.1');
    expect(await a.retryAfterMs(owner, '1.1.1.1')).toBe(60_000);
    for (let i = 0; i < 10; i++) {
      advance(await any().retryAfterMs(owner, '1.1.1.1'));
      await any().recordFailure(owner, '1.1.1.1');
    }
    expect(await b.retryAfterMs(owner, '1.1.1.1')).toBe(15 * minute); // capped
    advance(61 * minute);
    expect(await a.retryAfterMs(owner, '1.1.1.1')).toBe(0);
  });

  it("never stops the owner at another address because of a stranger's failures", async () => {
    const { any, email, advance } = setup();
    const owner = email('owner');
    for (let i = 0; i < 40; i++) {
      advance(await any().retryAfterMs(owner, '6.6.6.6'));
      await any().recordFailure(owner, '6.6.6.6');
    }
    expect(await any().retryAfterMs(owner, '6.6.6.6')).toBeGreaterThan(0);
    expect(await any().retryAfterMs(owner, '7.7.7.7')).toBe(0);
    // Two strangers are not yet "many addresses" either.
    for (let i = 0; i < 5; i++) await any().recordFailure(owner, '5.5.5.5');
    expect(await any().retryAfterMs(owner, '7.7.7.7')).toBe(0);
  });

  it('slows a guess at one account from many addresses, except from addresses the owner used before', async () => {
    const { any, a, b, email } = setup();
    const owner = email('owner');
    await a.recordSuccess(owner, '10.0.0.7');
    for (let i = 0; i < 10; i++) await any().recordFailure(owner, `203.0.113.${i}`);
    expect(await b.retryAfterMs(owner, '198.51.100.1')).toBe(30_000);
    expect(await b.retryAfterMs(owner, '10.0.0.7')).toBe(0);
    expect(await a.retryAfterMs(email('someone-else'), '198.51.100.1')).toBe(0);
    // The owner got in: the guesses so far stop counting against the account.
    await b.recordSuccess(owner, '10.0.0.7');
    expect(await a.retryAfterMs(owner, '198.51.100.1')).toBe(0);
  });

  it("keeps a stranger's count at one account when the owner signs in elsewhere", async () => {
    const { any, a, email } = setup();
    const owner = email('owner');
    for (let i = 0; i < 5; i++) await any().recordFailure(owner, '192.0.2.66');
    await a.recordSuccess(owner, '10.0.0.8');
    expect(await any().retryAfterMs(owner, '192.0.2.66')).toBe(30_000);
  });

  it('slows one address trying many accounts, even if it signs in to one of its own', async () => {
    const { any, a, b, email } = setup();
    for (let i = 0; i < 20; i++) await any().recordFailure(email(`victim${i}`), '9.9.9.9');
    await a.recordSuccess(email('mine'), '9.9.9.9');
    expect(await b.retryAfterMs(email('victim99'), '9.9.9.9')).toBe(30_000);
    expect(await a.retryAfterMs(email('victim99'), '9.9.9.8')).toBe(0);
  });

  it('counts an IPv6 client by its /64', async () => {
    const { any, email } = setup();
    for (let i = 0; i < 5; i++) await any().recordFailure(email('v6'), `2001:db8:1:2::${i + 1}`);
    expect(await any().retryAfterMs(email('v6'), '2001:db8:1:2::ff')).toBe(30_000);
  });
});
