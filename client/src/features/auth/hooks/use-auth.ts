import { tokenStorage } from '@/lib/token-storage';
import { useMe } from '../api/get-me';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

/** Auth state (spec §4): loading, then signed in or signed out. */
export function useAuth() {
  const me = useMe();
  // Without a stored token there is no session, whatever an (older) persisted cache still holds.
  const user = tokenStorage.get() ? (me.data ?? null) : null;
  const status: AuthStatus = me.isPending ? 'loading' : user ? 'signedIn' : 'signedOut';
  return { status, user };
}

/** The header shows the username, or the part of the e-mail before the @ (spec part 2 §2). */
export function displayName(user: { username?: string | null; displayName?: string | null; email: string }): string {
  return user.displayName || user.username || user.email.split('@')[0] || user.email;
}
