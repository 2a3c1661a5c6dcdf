import type { Sql } from '../platform/sql/sql.port.js';
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
/** Where a process that ended sessions tells the others, so their live sockets are checked at once. */
export const SESSIONS_ENDED_CHANNEL = 'kesher_sessions_ended';

/**
 * Live sockets are the one thing checked only now and then (every `socketSweepMs`); with `shared`, a
 * process that signs a token out (or ends an account's sessions) sends a NOTIFY, and every process
 * listening checks its sockets at once, so a signed-out owner's open feeds close on every replica within
 * milliseconds; the sweep remains for a notification lost while a listener reconnects.
 */
export function createAuthenticator(deps: {
  tokens: TokenIssuer;
  sessions: SessionStore;
  /**
   * The account as its stream in the log holds it (by the address the token names), for a token whose
   * account the read model does not show yet: an owner who just registered is signed in on their next
   * request even while the projector lags.
   */
  accountFromLog?: (email: string, accountId: string) => Promise<SignedInAccount | undefined>;
  socketSweepMs?: number;
  shared?: Pick<Sql, 'query' | 'listen'>;
  onError?: (error: unknown) => void;
}) {
  // The live sockets opened with each token: signing out closes them (see live-sockets.ts).
  const sockets = createLiveSockets({
    isSignedIn: async (token) => (await api.authenticate(token)) !== undefined,
    sweepMs: deps.socketSweepMs,
    onError: deps.onError,
  });
  const tell = async () => {
    await deps.shared
      ?.query(`SELECT pg_notify($1, '')`, [SESSIONS_ENDED_CHANNEL])
      .catch((error) => deps.onError?.(error));
  };

  const api = {
    async authenticate(token: string): Promise<Authenticated | undefined> {
      const claims = await deps.tokens.verify(token);
      if (!claims) return undefined;
      const account = await deps.sessions.accountForToken(claims.accountId, claims.tokenId, claims.generation);
      if (account) return { account, claims };
      // Not in the read model: a new account it has not applied yet, or one that lost its address or ended.
      if (!claims.email || !deps.accountFromLog) return undefined;
      const fromLog = await deps.accountFromLog(claims.email, claims.accountId);
      if (!fromLog || fromLog.sessionGeneration !== claims.generation) return undefined;
      if (await deps.sessions.ended(claims.accountId, claims.tokenId, claims.generation)) return undefined;
      return { account: fromLog, claims };
    },
    /** Signs a token out: revoked for every process before this resolves, its live sockets here closed. */
    async signOut(token: string, claims: TokenClaims) {
      await deps.sessions.revoke(claims.tokenId, claims.expiresAt);
      sockets.signedOut(token);
      await tell();
    },
    /** Some account's sessions ended here (a reset, a lost address): other processes check their sockets now. */
    sessionsEnded: async () => {
      sockets.sweepNow();
      await tell();
    },
    /**
     * Follows the other processes' sign-outs (before serving); resolves to a stop function, which also ends
     * the sockets' sweep (a closing API must not go on asking a database whose pool is ending).
     */
    async listen(): Promise<() => Promise<void>> {
      const unlisten = deps.shared
        ? await deps.shared.listen(SESSIONS_ENDED_CHANNEL, () => sockets.sweepNow())
        : undefined;
      return async () => {
        sockets.stop();
        await unlisten?.();
      };
    },
    /** A live socket (a subscription, a progress feed) opened with `token`: closed when the token is signed out. */
    trackSocket(token: string, socket: ClosableSocket) {
      sockets.track(token, socket);
    },
  };
  return api;
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
