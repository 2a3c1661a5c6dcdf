import { localStore } from '@/lib/safe-storage';
/**
 * A visitor's session token per assistant (local storage). The server issues it with the visitor's first
 * thread and every later call on that thread must carry it, so a reload of
 * /public-chat/{assistantId}/{threadId} can read the conversation again.
 */
const key = (assistantId: string) => `publicChatSession:${assistantId}`;

/** The server's minimum for a session token (contracts SessionTokenSchema). */
const MIN_TOKEN_LENGTH = 16;
export const isSessionToken = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.length >= MIN_TOKEN_LENGTH && value.length <= 256;

export const visitorSessionStore = {
  get(assistantId: string): string | null {
    try {
      const token = localStore.getItem(key(assistantId));
      return isSessionToken(token) ? token : null;
    } catch {
      return null;
    }
  },
  set(assistantId: string, token: string) {
    try {
      localStore.setItem(key(assistantId), token);
    } catch {
      // Storage blocked: the conversation works until the page is left.
    }
  },
};

/** Spec §2: a session token may arrive in the query as sessionToken, token or github_token. */
export function sessionTokenFromQuery(search: string): string | null {
  const query = new URLSearchParams(search);
  for (const name of ['sessionToken', 'token', 'github_token']) {
    const value = query.get(name);
    if (isSessionToken(value)) return value;
  }
  return null;
}
