import { createLiveSockets, type ClosableSocket } from './live-sockets.js';
import type { SessionStore, SignedInAccount } from './session.store.js';
import type { TokenClaims, TokenIssuer } from './token-issuer.js';

export interface Authenticated {
  account: SignedInAccount;
  claims: TokenClaims;
}

/**
 * Bearer token → signed-in account, for every request. Checking the signature and looking the account
 * up costs a crypto call and a database round trip; the answer for a token is remembered for a couple
 * of seconds (never past the token's expiry). Sign-out in this process forgets the token at once;
 * another API process notices within `ttlMs`.
 */
export function createAuthenticator(deps: { tokens: TokenIssuer; sessions: SessionStore; ttlMs?: number; maxEntries?: number; now?: () => number; socketSweepMs?: number }) {
  const ttlMs = deps.ttlMs ?? 2000;
  const maxEntries = deps.maxEntries ?? 10_000;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { result: Authenticated | undefined; until: number }>();

  async function resolve(token: string): Promise<Authenticated | undefined> {
    const claims = await deps.tokens.verify(token);
    if (!claims) return undefined;
    const account = await deps.sessions.accountForToken(claims.accountId, claims.tokenId, claims.generation);
    return account && { account, claims };
  }

  // The live sockets opened with each token: signing out closes them (see live-sockets.ts).
  const sockets = createLiveSockets({ isSignedIn: async (token) => (await api.authenticate(token)) !== undefined, sweepMs: deps.socketSweepMs });

  const api = {
    async authenticate(token: string): Promise<Authenticated | undefined> {
      const hit = cache.get(token);
      if (hit && hit.until > now()) return hit.result;
      const result = await resolve(token);
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      const until = Math.min(now() + ttlMs, result ? result.claims.expiresAt.getTime() : Infinity);
      cache.set(token, { result, until });
      return result;
    },
    /** Signs a token out: revoked for every process, forgotten by this one at once, its live sockets closed. */
    async signOut(token: string, claims: TokenClaims) {
      cache.delete(token);
      await deps.sessions.revoke(claims.tokenId, claims.expiresAt);
      sockets.signedOut(token);
    },
    /**
     * Forgets this process's answers for every token of an account whose sessions all ended (a password
     * reset, an address lost): they are asked again at once; other processes notice within `ttlMs`.
     */
    forgetAccount(accountId: string) {
      for (const [token, hit] of cache) if (hit.result?.account.id === accountId) cache.delete(token);
    },
    /** A live socket (a subscription, a progress feed) opened with `token`: closed when the token is signed out. */
    trackSocket(token: string, socket: ClosableSocket) {
      sockets.track(token, socket);
    },
  };
  return api;
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
