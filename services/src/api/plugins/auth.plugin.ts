import { messages } from '@kesher/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TokenIssuer } from '../../identity/token-issuer.js';
import type { SessionStore, SignedInAccount } from '../../identity/session.store.js';
import { ApiError } from '../api-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in owner, when a valid bearer token came with the request. */
    account: SignedInAccount | null;
    tokenId: string | null;
  }
}

/** Reads the bearer token on every request; routes that need an owner call `requireAccount`. */
export const authPlugin = fp(async (app: FastifyInstance, deps: { tokens: TokenIssuer; sessions: SessionStore }) => {
  app.decorateRequest('account', null);
  app.decorateRequest('tokenId', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return;
    const claims = await deps.tokens.verify(header.slice(7).trim());
    if (!claims) return;
    const account = await deps.sessions.accountForToken(claims.accountId, claims.tokenId);
    if (!account) return;
    request.account = account;
    request.tokenId = claims.tokenId;
  });
});

export function requireAccount(request: FastifyRequest): SignedInAccount {
  if (!request.account) throw new ApiError(401, messages.authRequired);
  return request.account;
}
