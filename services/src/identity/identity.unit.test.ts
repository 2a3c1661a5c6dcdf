import { describe, expect, it } from 'vitest';
import { addressKey } from './login-throttle.js';
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
    const other = createTokenIssuer({
      secret: new TextEncoder().encode('o'.repeat(32)),
      ttlSeconds: 60,
      now: () => now,
    });
    expect(await other.verify(token)).toBeUndefined();
    now = new Date('2026-11-22T10:02:00Z');
    expect(await tokens.verify(token)).toBeUndefined();
  });
});

describe('addresses as the sign-in throttle counts them', () => {
  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.4')).toBe('192.0.2.4');
    expect(addressKey('192.0.2.4')).toBe('192.0.2.4');
  });
});
