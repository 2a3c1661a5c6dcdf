import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { requireAccount } from './auth.plugin.js';

/**
 * The routes that take a body from someone who is not signed in: signing in and its recovery, the
 * visitors' public chat and feedback, the test payment page's form (its checkout names the owner) and
 * the payment and channel services' webhooks (signed their own way). Each checks its caller itself.
 */
const SIGNED_OUT_ALLOWED: readonly RegExp[] = [
  /^\/api\/v1\/auth\//,
  /^\/api\/v1\/threads\/public(\/|$)/,
  /^\/api\/v1\/feedback\/public$/,
  /^\/api\/v1\/subscriptions\/(tranzila-mock|webhook)$/,
  /^\/api\/v1\/channels\//,
];

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function signInFirst(request: FastifyRequest) {
  requireAccount(request);
}

/** Whether a route declares input that is validated before its handler runs (where it would ask for an account). */
const validatesInput = (route: RouteOptions) => {
  const schema = route.schema as { body?: unknown; params?: unknown; querystring?: unknown } | undefined;
  return Boolean(schema?.body || schema?.params || schema?.querystring);
};

/**
 * An owner's write routes say "sign in" (401) before anything about their input: the schema is checked
 * before the handler, which is where `requireAccount` runs, so a signed-out caller with a bad body got
 * 422 — telling a stranger the route's fields, and a signed-out client the wrong thing to fix. Every
 * write route with validated input not listed above is given the account check as its first
 * preValidation hook (a route added tomorrow is covered too: `sign-in-first.int.test.ts` sweeps them all).
 */
export const signInFirstPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((method) => WRITES.has(method)) || !validatesInput(route)) return;
    if (SIGNED_OUT_ALLOWED.some((pattern) => pattern.test(route.url ?? ''))) return;
    route.preValidation = [signInFirst, ...[route.preValidation ?? []].flat()];
  });
});
