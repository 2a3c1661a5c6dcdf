import { localStore } from './safe-storage';
/** The browser storage entries of the signed-in session (spec §3), read and written only here. */
const keys = { token: 'firebaseToken', uid: 'currentUserUid', mock: 'mockJwtToken' } as const;

/** Spec §5: a stored token of 10 characters or fewer is invalid and removed. */
const MIN_TOKEN_LENGTH = 11;

export const tokenStorage = {
  get(): string | null {
    const token = localStore.getItem(keys.token);
    if (token !== null && token.length < MIN_TOKEN_LENGTH) {
      localStore.removeItem(keys.token);
      return null;
    }
    return token;
  },
  set(token: string, uid: string) {
    localStore.setItem(keys.token, token);
    localStore.setItem(keys.uid, uid);
  },
  clear() {
    for (const key of Object.values(keys)) localStore.removeItem(key);
  },
};
