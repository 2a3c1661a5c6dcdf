import type { AccountRegistration } from './account-registration.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SessionStore } from './session.store.js';

/**
 * Three accounts a newcomer can sign in with at once on the embedded default. They are created only
 * there (see demoAccountsEnabled) and configuration refuses them in production.
 */
export const demoAccounts = [
  { email: 'dana@demo.kesher.app', password: 'Demo-Kesher-2026!', displayName: 'Dana (demo)' },
  { email: 'yossi@demo.kesher.app', password: 'Demo-Kesher-2026!', displayName: 'Yossi (demo)' },
  { email: 'maya@demo.kesher.app', password: 'Demo-Kesher-2026!', displayName: 'Maya (demo)' },
] as const;

export async function ensureDemoAccounts(deps: {
  registration: AccountRegistration;
  sessions: SessionStore;
  passwords: PasswordHasher;
}) {
  for (const demo of demoAccounts) {
    if (await deps.sessions.accountByEmail(demo.email)) continue;
    await deps.registration({
      email: demo.email,
      passwordHash: await deps.passwords.hash(demo.password),
      displayName: demo.displayName,
      photoUrl: null,
      provider: 'demo',
    });
  }
}
