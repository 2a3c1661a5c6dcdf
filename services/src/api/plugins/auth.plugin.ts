import { messages } from '@kesher/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Authenticated, Authenticator, SignedInAccount } from '../../identity/index.js';
import { ApiError } from '../api-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in owner, when a valid bearer token came with the request. */
    account: SignedInAccount | null;
    session: (Authenticated & { token: string }) | null;
  }
}

/** Reads the bearer token on every request; routes that need an owner call `requireAccount`. */
export const authPlugin = fp(async (app: FastifyInstance, deps: { authenticator: Authenticator }) => {
  app.decorateRequest('account', null);
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return;
    const token = header.slice(7).trim();
    if (token.length < 20 || token.length > 4096) return;
    const session = await deps.authenticator.authenticate(token);
    if (!session) return;
    request.account = session.account;
    request.session = { ...session, token };
  });
});

export function requireAccount(request: FastifyRequest): SignedInAccount {
  if (!request.account) throw new ApiError(401, messages.authRequired);
  return request.account;
}
