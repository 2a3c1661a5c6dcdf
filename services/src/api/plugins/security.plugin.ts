import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { messages } from '@kesher/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface SecurityOptions {
  /** Requests per minute per signed-in account, or per address for anonymous requests. */
  rateLimitPerMinute: number;
  /** Allowed browser origins; empty allows any (the API uses bearer tokens, never cookies). */
  corsOrigins: readonly string[];
}

export const securityPlugin = fp(async (app: FastifyInstance, options: SecurityOptions) => {
  await app.register(helmet, {
    // The API answers JSON; the PWA sets its own policy. The widget is framed by other sites.
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  await app.register(cors, {
    origin: options.corsOrigins.length ? [...options.corsOrigins] : true,
    credentials: false,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Requested-With', 'Last-Event-ID'],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  });
  await app.register(rateLimit, {
    global: true,
    max: options.rateLimitPerMinute,
    timeWindow: 60_000,
    // After authentication (onRequest) so a signed-in owner is limited as one account across addresses.
    hook: 'preHandler',
    keyGenerator: (request) => (request.account ? `account:${request.account.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) => ({ statusCode: 429, detail: messages.tooManyRequests, retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });
});
