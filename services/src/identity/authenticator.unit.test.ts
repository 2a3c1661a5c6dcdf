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
    // A sweep would ask for the account behind the token; none may run once the API has closed.
    const sessions = {
      accountForToken: async () => {
        throw new Error('asked the database after close');
      },
    } as unknown as SessionStore;
    const authenticator = createAuthenticator({ tokens, sessions, socketSweepMs: 100 });
    const stop = await authenticator.listen();
    const { token } = await tokens.issue('account-1', 0, 'a@example.com');
    authenticator.trackSocket(token, new FakeSocket());
    // The sweep's timer is the only timer: it runs while a socket is followed ...
    expect(vi.getTimerCount()).toBe(1);

    await stop();
    // ... and is gone once the API closed, though the socket never said it closed.
    expect(vi.getTimerCount()).toBe(0);
  });
});
