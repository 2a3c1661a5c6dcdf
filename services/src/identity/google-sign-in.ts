import { randomUUID } from 'node:crypto';
import { accountOfState, type RunAccountCommand } from './account-registration.js';
import type { GoogleIdentity } from './google-verifier.js';
import { ALL_SESSIONS, type SessionStore } from './session.store.js';

/**
 * Signing in with a verified Google identity. An account whose address was proven (verified, reset by
 * e-mail, or made by Google) is signed into. An account that never proved its address is *not*: it may
 * be a squatter's, made with someone else's address and a password to wait for them. It loses the
 * address — its password and sessions stop working — and the Google identity starts a new, empty
 * account, so the real owner gets nothing the squatter prepared (docs/identity.md says why).
 */
export function createGoogleSignIn(deps: {
  runAccountCommand: RunAccountCommand;
  sessions: SessionStore;
  sessionsEnded?: () => Promise<void>;
}) {
  return async function signInWithGoogle(identity: GoogleIdentity, correlationId: string = randomUUID()) {
    const existing = await deps.sessions.accountByEmail(identity.email);
    if (existing?.emailVerified) return existing;
    const accountId = randomUUID();
    const result = await deps.runAccountCommand(
      identity.email,
      {
        type: 'SignInWithGoogle',
        data: {
          accountId,
          email: identity.email,
          passwordHash: null,
          displayName: identity.name,
          photoUrl: identity.picture,
          provider: 'google',
        },
      },
      accountId,
      correlationId,
    );
    // The squatter's sessions end on every API process before this answers.
    for (const event of result.events) {
      if (event.type !== 'AccountAddressReleased') continue;
      await deps.sessions.endSessionsBefore(event.data.accountId, ALL_SESSIONS);
      await deps.sessionsEnded?.();
    }
    // The account the stream holds now (a new one, or a verified one the read model had not shown yet):
    // answered from the decision, never from the read model, which may lag.
    const account = accountOfState(result.state);
    if (!account) throw new Error('a Google sign-in decided no account');
    return account;
  };
}
export type GoogleSignIn = ReturnType<typeof createGoogleSignIn>;
