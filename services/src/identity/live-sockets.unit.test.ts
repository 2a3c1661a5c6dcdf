import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLiveSockets, SIGNED_OUT_CLOSE_CODE } from './live-sockets.js';

/** A socket that records how it was closed and says so, as ws sockets do. */
class FakeSocket extends EventEmitter {
  closedWith: [number | undefined, string | undefined] | null = null;
  close(code?: number, reason?: string) {
    if (this.closedWith) return;
    this.closedWith = [code, reason];
    this.emit('close');
  }
}

describe('live sockets by token', () => {
  it("closes a signed-out token's sockets at once, and no other token's", () => {
    const sockets = createLiveSockets({ isSignedIn: async () => true });
    const [a1, a2, b] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    sockets.track('token-a', a1);
    sockets.track('token-a', a2);
    sockets.track('token-b', b);
    expect(sockets.size).toBe(3);
    expect(sockets.signedOut('token-a')).toBe(2);
    expect(a1.closedWith).toEqual([SIGNED_OUT_CLOSE_CODE, 'Signed out']);
    expect(a2.closedWith).toEqual([SIGNED_OUT_CLOSE_CODE, 'Signed out']);
    expect(b.closedWith).toBeNull();
    expect(sockets.size).toBe(1);
    sockets.stop();
  });

  it('forgets a socket that closed on its own', () => {
    const sockets = createLiveSockets({ isSignedIn: async () => true });
    const socket = new FakeSocket();
    sockets.track('token-a', socket);
    socket.close(1000, 'bye');
    expect(sockets.size).toBe(0);
    expect(sockets.signedOut('token-a')).toBe(0);
    sockets.stop();
  });

  it('notices a sign-out elsewhere (another API process) on its sweep', async () => {
    const revoked = new Set<string>();
    let asked = 0;
    const sockets = createLiveSockets({ isSignedIn: async (token) => (asked++, !revoked.has(token)), sweepMs: 20 });
    const [a, b] = [new FakeSocket(), new FakeSocket()];
    sockets.track('token-a', a);
    sockets.track('token-b', b);
    // Two sweeps have asked about both sockets (however late a busy machine ran them): still signed in, still open.
    await expect.poll(() => asked, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(4);
    expect(a.closedWith).toBeNull();
    revoked.add('token-a');
    await expect
      .poll(() => a.closedWith, { timeout: 1000, interval: 10 })
      .toEqual([SIGNED_OUT_CLOSE_CODE, 'Signed out']);
    expect(b.closedWith).toBeNull();
    sockets.stop();
  });
});
