/** What the registry needs of a socket: closing it (ws and @fastify/websocket sockets have this). */
export interface ClosableSocket {
  close(code?: number, reason?: string): void;
  once(event: 'close', listener: () => void): unknown;
}

/** The close code a signed-out socket gets (4000–4999 are the application's own). */
export const SIGNED_OUT_CLOSE_CODE = 4401;
export const SIGNED_OUT_REASON = 'Signed out';

/**
 * The live sockets owners opened (GraphQL subscriptions, crawl progress), by the bearer token they were
 * opened with, so that signing out ends them too: a revoked token must not keep receiving an owner's
 * figures. A sign-out in this process closes its token's sockets at once; a sweep asks the authenticator
 * about every token still followed, which notices a sign-out in another API process (and an expired
 * token) within `sweepMs` plus the authenticator's cache time.
 */
export function createLiveSockets(deps: {
  isSignedIn: (token: string) => Promise<boolean>;
  sweepMs?: number;
  onError?: (error: unknown) => void;
}) {
  const byToken = new Map<string, Set<ClosableSocket>>();
  const sweepMs = deps.sweepMs ?? 5000;

  function closeToken(token: string) {
    const sockets = byToken.get(token);
    if (!sockets) return 0;
    byToken.delete(token);
    for (const socket of sockets) socket.close(SIGNED_OUT_CLOSE_CODE, SIGNED_OUT_REASON);
    return sockets.size;
  }

  let sweeping = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  function sweep() {
    // A sweep asked for while one runs runs right after it (it may be about a sign-out the running one missed).
    if (sweeping) return void (again = true);
    sweeping = true;
    void (async () => {
      for (const token of [...byToken.keys()]) if (!(await deps.isSignedIn(token))) closeToken(token);
    })()
      .catch((error) => deps.onError?.(error))
      .finally(() => {
        sweeping = false;
        if (again) {
          again = false;
          return sweep();
        }
        // Only while something is followed: an API without live sockets runs no timer.
        if (byToken.size === 0) stop();
      });
  }
  function stop() {
    clearInterval(timer);
    timer = undefined;
  }

  return {
    /** Follows a socket opened with `token` until it closes. */
    track(token: string, socket: ClosableSocket) {
      let sockets = byToken.get(token);
      if (!sockets) byToken.set(token, (sockets = new Set()));
      if (sockets.has(socket)) return;
      sockets.add(socket);
      if (!timer) {
        timer = setInterval(sweep, sweepMs);
        timer.unref();
      }
      socket.once('close', () => {
        const current = byToken.get(token);
        current?.delete(socket);
        if (current?.size === 0) byToken.delete(token);
      });
    },
    /** Closes every socket opened with the token (it was signed out); how many. */
    signedOut: closeToken,
    /** Asks about every followed token now (another process ended some session). */
    sweepNow() {
      if (byToken.size > 0) sweep();
    },
    /** How many sockets are followed (for tests and metrics). */
    get size() {
      let n = 0;
      for (const sockets of byToken.values()) n += sockets.size;
      return n;
    },
    stop,
  };
}
export type LiveSockets = ReturnType<typeof createLiveSockets>;
