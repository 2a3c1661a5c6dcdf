import { messages } from '@kesher/contracts';
import { EventSchemaError } from '@kesher/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError } from '../../platform/commands/decider.js';
import { StreamDeletedError, WrongExpectedVersionError } from '../../platform/event-store/event-store.port.js';
import { ApiError } from '../api-error.js';

const domainStatus = { not_found: 404, conflict: 409, forbidden: 403, invalid: 422 } as const;

/**
 * The single error handler: every failure leaves as `{ detail }`. Below 500 the detail is the real,
 * user-facing text; 500 and above never carry internals (they are logged instead).
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const part = error.validationContext ?? 'body';
      const detail = error.validation.map((issue) => ({
        loc: [part, ...issue.instancePath.split('/').filter(Boolean)],
        msg: issue.message ?? 'Invalid value',
        type: String(issue.params?.issue && typeof issue.params.issue === 'object' && 'code' in issue.params.issue ? issue.params.issue.code : issue.keyword),
      }));
      return reply.status(422).send({ detail });
    }
    if (error instanceof ApiError) return reply.status(error.statusCode).headers(error.headers).send({ detail: error.detail });
    if (error instanceof DomainError) return reply.status(domainStatus[error.kind]).send({ detail: error.message });
    if (error instanceof StreamDeletedError) return reply.status(404).send({ detail: messages.notFound });
    if (error instanceof WrongExpectedVersionError) {
      return reply.status(409).send({ detail: 'This item was changed at the same moment by another request. Please try again.' });
    }
    if (error instanceof EventSchemaError) {
      // A command produced data its event schema refuses: the input slipped past the route schema.
      request.log.warn({ err: error }, 'event schema refused a command');
      return reply.status(422).send({ detail: 'The request contains invalid data.' });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ detail: messages.tooManyRequests });
    if (status >= 400 && status < 500) {
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type.'
          : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'The request body is empty.'
            : error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError
              ? 'The request body is not valid JSON.'
              : error.message;
      return reply.status(status).send({ detail });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ detail: messages.serverError });
  });

  app.setNotFoundHandler(
    // Rate-limited like every route, so that nobody can cheaply probe for valid URLs.
    { preHandler: app.rateLimit ? app.rateLimit() : undefined },
    (_request, reply) => reply.status(404).send({ detail: messages.notFound }),
  );
});
