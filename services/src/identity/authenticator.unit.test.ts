import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthenticator } from './authenticator.js';
import type { SessionStore } from './session.store.js';
import { createTokenIssuer } from './token-issuer.js';

class FakeSocket extends EventEmitter {
  close() {
    this.emit('close');
  }
}

describe('the authenticator when its API closes', () => {
  afterEach(() => vi.useRealTimers());

  it('stops sweeping the live sockets: a closed API asks the database nothing more (its pool is ending)', async () => {
    vi.useFakeTimers();
    const tokens = createTokenIssuer({ secret: new TextEncoder().encode('x'.repeat(32)), ttlSeconds: 3600 });
    let lookups = 0;
    // Only what a sweep calls: the account behind a token, still signed in.
    const sessions = {
      accountForToken: async (accountId: string) => (lookups++, { id: accountId, email: 'a@example.com' }),
    } as unknown as SessionStore;
    const authenticator = createAuthenticator({ tokens, sessions, socketSweepMs: 100 });
    const stop = await authenticator.listen();
    const { token } = await tokens.issue('account-1', 0, 'a@example.com');
    authenticator.trackSocket(token, new FakeSocket());

    await vi.advanceTimersByTimeAsync(250);
    const whileOpen = lookups;
    expect(whileOpen).toBeGreaterThanOrEqual(2);

    await stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(lookups).toBe(whileOpen);
  });
});
