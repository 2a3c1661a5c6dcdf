import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { messages } from '@kesher/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { LimitCounters } from '../../platform/limits/limit-counters.js';
import { sqlRateLimitStore } from '../../platform/limits/rate-limit-store.js';

export interface SecurityOptions {
  /** Requests per minute per signed-in account, or per address for anonymous requests. */
  rateLimitPerMinute: number;
  /** Allowed browser origins; empty allows any (the API uses bearer tokens, never cookies). */
  corsOrigins: readonly string[];
  /**
   * The shared counters every limit of the plugin counts in (the API-wide one, the auth routes', the
   * webhooks'), so they hold across API processes; absent (unit tests of one app), the plugin's own
   * in-memory store.
   */
  counters?: LimitCounters;
}

/** What the API's own answers (JSON, the docs page) may do in a browser: nothing, and not be framed. */
export const API_CONTENT_SECURITY_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** A year, this host only: other services under the operator's domain may still speak plain HTTP. */
const HSTS = 'max-age=31536000';

export const securityPlugin = fp(async (app: FastifyInstance, options: SecurityOptions) => {
  await app.register(helmet, {
    // The client build's pages carry their own policy (client-csp.ts); API answers get the strict one below.
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // Sent only over HTTPS, below: over plain HTTP it is meaningless, and a proxy decides which it is.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // `protocol` is the socket's, or X-Forwarded-Proto from a proxy TRUST_PROXY names.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    if (!reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', API_CONTENT_SECURITY_POLICY);
    return payload;
  });
  await app.register(cors, {
    origin: options.corsOrigins.length ? [...options.corsOrigins] : true,
    credentials: false,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Requested-With', 'Last-Event-ID', 'X-Run-Grant'],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  });
  await app.register(rateLimit, {
    global: true,
    max: options.rateLimitPerMinute,
    timeWindow: 60_000,
    // A database that does not answer must not turn every request (/health included) into a 500 from
    // the limiter: the counting is skipped meanwhile, and what needs the database fails on its own.
    ...(options.counters ? { store: sqlRateLimitStore(options.counters), skipOnError: true } : {}),
    // After authentication (onRequest) so a signed-in owner is limited as one account across addresses.
    hook: 'preHandler',
    keyGenerator: (request) => (request.account ? `account:${request.account.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      detail: messages.tooManyRequests,
      retryAfterSeconds: Math.ceil(context.ttl / 1000),
    }),
  });
});
