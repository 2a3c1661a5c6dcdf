import { describe, expect, it } from 'vitest';
import { createLoginThrottle } from './login-throttle.js';
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
  it('blocks an e-mail after five failures in the window, and forgets them afterwards', () => {
    let now = 0;
    const throttle = createLoginThrottle({ now: () => now });
    for (let i = 0; i < 5; i++) throttle.recordFailure('a@x.io', '1.1.1.1');
    expect(throttle.isBlocked('a@x.io', '2.2.2.2')).toBe(true);
    expect(throttle.isBlocked('b@x.io', '2.2.2.2')).toBe(false);
    now = 16 * 60_000;
    expect(throttle.isBlocked('a@x.io', '2.2.2.2')).toBe(false);
  });
});
