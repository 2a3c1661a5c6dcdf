/**
 * Who is chatting: the signed-in owner (bearer token, added by the API module) or a visitor holding a
 * share link, whose every call carries the thread's session token (spec §7: public threads).
 */
export type ChatAccess = { kind: 'owner' } | { kind: 'visitor'; sessionToken: string };

export const isVisitor = (access: ChatAccess): access is { kind: 'visitor'; sessionToken: string } =>
  access.kind === 'visitor';

/** The path prefix of thread calls: /threads or /threads/public. */
export const threadsBase = (access: ChatAccess) => (isVisitor(access) ? '/threads/public' : '/threads');

/** Visitors' reads carry the session token in the query, their writes in the body. */
export const sessionQuery = (access: ChatAccess) =>
  isVisitor(access) ? `?session_token=${encodeURIComponent(access.sessionToken)}` : '';
export const sessionBody = (access: ChatAccess) => (isVisitor(access) ? { session_token: access.sessionToken } : {});
