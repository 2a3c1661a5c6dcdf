import { createLiveSockets, type ClosableSocket } from './live-sockets.js';
import type { SessionStore, SignedInAccount } from './session.store.js';
import type { TokenClaims, TokenIssuer } from './token-issuer.js';

export interface Authenticated {
  account: SignedInAccount;
  claims: TokenClaims;
}

/**
 * Bearer token → signed-in account, for every request: the signature is checked (an HMAC, no I/O) and the
 * account looked up in Postgres with the token's sign-out and its account's session floor, in one round
 * trip (session.store.ts). Nothing is remembered between requests: a sign-out, a password reset or a lost
 * address on any API process is refused by every other from its next request on. (A cache of a couple of
 * seconds kept each process answering for a signed-out token that long.)
 */
export function createAuthenticator(deps: { tokens: TokenIssuer; sessions: SessionStore; socketSweepMs?: number }) {
  // The live sockets opened with each token: signing out closes them (see live-sockets.ts).
  const sockets = createLiveSockets({ isSignedIn: async (token) => (await api.authenticate(token)) !== undefined, sweepMs: deps.socketSweepMs });

  const api = {
    async authenticate(token: string): Promise<Authenticated | undefined> {
      const claims = await deps.tokens.verify(token);
      if (!claims) return undefined;
      const account = await deps.sessions.accountForToken(claims.accountId, claims.tokenId, claims.generation);
      return account && { account, claims };
    },
    /** Signs a token out: revoked for every process before this resolves, its live sockets here closed. */
    async signOut(token: string, claims: TokenClaims) {
      await deps.sessions.revoke(claims.tokenId, claims.expiresAt);
      sockets.signedOut(token);
    },
    /** A live socket (a subscription, a progress feed) opened with `token`: closed when the token is signed out. */
    trackSocket(token: string, socket: ClosableSocket) {
      sockets.track(token, socket);
    },
  };
  return api;
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
