import { describe, expect, it } from 'vitest';
import { addressKey, createLoginThrottle } from './login-throttle.js';
import { createPasswordHasher } from './password-hasher.js';
import { createTokenIssuer } from './token-issuer.js';

describe('password hasher', () => {
  const hasher = createPasswordHasher({ N: 2 ** 12 });
  it('verifies the right password and refuses a wrong one; salts differ', async () => {
    const a = await hasher.hash('Correct-Horse-9');
    const b = await hasher.hash('Correct-Horse-9');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$4096\$8\$1\$/);
    expect(await hasher.verify('Correct-Horse-9', a)).toBe(true);
    expect(await hasher.verify('correct-horse-9', a)).toBe(false);
    expect(await hasher.verify('x', 'not-a-hash')).toBe(false);
  });
});

describe('token issuer', () => {
  const secret = new TextEncoder().encode('s'.repeat(32));
  it('round-trips claims and refuses forged, foreign or expired tokens', async () => {
    let now = new Date('2026-11-22T10:00:00Z');
    const tokens = createTokenIssuer({ secret, ttlSeconds: 60, now: () => now });
    const { token } = await tokens.issue('acc-1');
    expect((await tokens.verify(token))?.accountId).toBe('acc-1');
    expect(await tokens.verify(`${token.slice(0, -2)}xx`)).toBeUndefined();
    const other = createTokenIssuer({ secret: new TextEncoder().encode('o'.repeat(32)), ttlSeconds: 60, now: () => now });
    expect(await other.verify(token)).toBeUndefined();
    now = new Date('2026-11-22T10:02:00Z');
    expect(await tokens.verify(token)).toBeUndefined();
  });
});

describe('login throttle', () => {
  const minute = 60_000;
  const setup = () => {
    let now = 0;
    const throttle = createLoginThrottle({ now: () => now });
    return { throttle, advance: (ms: number) => (now += ms) };
  };

  it('slows one address guessing one account with a doubling backoff, and forgets it afterwards', () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 5; i++) {
      expect(throttle.retryAfterMs('a@x.io', '1.1.1.1')).toBe(0);
      throttle.recordFailure('a@x.io', '1.1.1.1');
    }
    expect(throttle.retryAfterMs('a@x.io', '1.1.1.1')).toBe(30_000);
    advance(30_000);
    expect(throttle.retryAfterMs('a@x.io', '1.1.1.1')).toBe(0);
    throttle.recordFailure('a@x.io', '1.1.1.1');
    expect(throttle.retryAfterMs('a@x.io', '1.1.1.1')).toBe(60_000);
    for (let i = 0; i < 10; i++) {
      advance(throttle.retryAfterMs('a@x.io', '1.1.1.1'));
      throttle.recordFailure('a@x.io', '1.1.1.1');
    }
    expect(throttle.retryAfterMs('a@x.io', '1.1.1.1')).toBe(15 * minute); // capped
    advance(61 * minute);
    expect(throttle.retryAfterMs('a@x.io', '1.1.1.1')).toBe(0);
  });

  it("never stops the owner at another address because of a stranger's failures", () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 200; i++) {
      advance(throttle.retryAfterMs('owner@x.io', '6.6.6.6'));
      throttle.recordFailure('owner@x.io', '6.6.6.6');
    }
    expect(throttle.retryAfterMs('owner@x.io', '6.6.6.6')).toBeGreaterThan(0);
    expect(throttle.retryAfterMs('owner@x.io', '7.7.7.7')).toBe(0);
    // Two strangers are not yet "many addresses" either.
    for (let i = 0; i < 5; i++) throttle.recordFailure('owner@x.io', '5.5.5.5');
    expect(throttle.retryAfterMs('owner@x.io', '7.7.7.7')).toBe(0);
  });

  it('slows a guess at one account from many addresses, except from addresses the owner used before', () => {
    const { throttle } = setup();
    throttle.recordSuccess('owner@x.io', '10.0.0.7');
    for (let i = 0; i < 10; i++) throttle.recordFailure('owner@x.io', `203.0.113.${i}`);
    expect(throttle.retryAfterMs('owner@x.io', '198.51.100.1')).toBe(30_000);
    expect(throttle.retryAfterMs('owner@x.io', '10.0.0.7')).toBe(0);
    expect(throttle.retryAfterMs('someone-else@x.io', '198.51.100.1')).toBe(0);
    // The owner got in: the guesses so far stop counting against the account.
    throttle.recordSuccess('owner@x.io', '10.0.0.7');
    expect(throttle.retryAfterMs('owner@x.io', '198.51.100.1')).toBe(0);
  });

  it('slows one address trying many accounts, even if it signs in to one of its own', () => {
    const { throttle } = setup();
    for (let i = 0; i < 20; i++) throttle.recordFailure(`victim${i}@x.io`, '9.9.9.9');
    throttle.recordSuccess('mine@x.io', '9.9.9.9');
    expect(throttle.retryAfterMs('victim99@x.io', '9.9.9.9')).toBe(30_000);
    expect(throttle.retryAfterMs('victim99@x.io', '9.9.9.8')).toBe(0);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.4')).toBe('192.0.2.4');
    expect(addressKey('192.0.2.4')).toBe('192.0.2.4');
    const { throttle } = setup();
    for (let i = 0; i < 5; i++) throttle.recordFailure('a@x.io', `2001:db8:1:2::${i + 1}`);
    expect(throttle.retryAfterMs('a@x.io', '2001:db8:1:2::ff')).toBe(30_000);
  });
});
