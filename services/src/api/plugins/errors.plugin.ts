import { errorCodeFor, EventSchemaError, messages, requestMessages } from '@kesher/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, type DomainErrorKind } from '../../platform/commands/decider.js';
import { StreamDeletedError, WrongExpectedVersionError } from '../../platform/event-store/event-store.port.js';
import { ApiError } from '../api-error.js';

const domainStatus: Record<DomainErrorKind, number> = {
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  invalid: 422,
  bad_request: 400,
  too_many: 429,
};

/** A text with its catalogue code beside it (and a parametrised text's values), when the catalogue has it. */
const coded = <T extends object>(part: T, text: string) => ({ ...part, ...errorCodeFor(text) });

/**
 * An error answer with codes: the detail's, or each validation item's. `detail` stays as the spec words it;
 * a code already set (a route that knows better) is kept.
 */
export function withErrorCodes(body: unknown): unknown {
  if (!body || typeof body !== 'object' || 'code' in body || !('detail' in body)) return body;
  const { detail } = body as { detail: unknown };
  if (typeof detail === 'string') return coded(body, detail);
  if (Array.isArray(detail)) {
    const items = detail.map((item: unknown) =>
      item && typeof item === 'object' && 'msg' in item && typeof item.msg === 'string' && !('code' in item)
        ? coded(item, item.msg)
        : item,
    );
    return { ...body, detail: items };
  }
  return body;
}

/**
 * The single error handler: every failure leaves as `{ detail }`. Below 500 the detail is the real,
 * user-facing text; 500 and above never carry internals (they are logged instead). Every error answer,
 * thrown or sent by a route, gets its detail's `code` (contracts http/error-codes.ts) on its way out.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preSerialization', async (_request, reply, payload) =>
    reply.statusCode >= 400 ? withErrorCodes(payload) : payload,
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const part = error.validationContext ?? 'body';
      const detail = error.validation.map((issue) => ({
        loc: [part, ...issue.instancePath.split('/').filter(Boolean)],
        msg: issue.message ?? 'Invalid value',
        type: String(
          issue.params?.issue && typeof issue.params.issue === 'object' && 'code' in issue.params.issue
            ? issue.params.issue.code
            : issue.keyword,
        ),
      }));
      return reply.status(422).send({ detail });
    }
    if (error instanceof ApiError) {
      const code = error.code ? { code: error.code } : {};
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ detail: error.detail, ...code });
    }
    if (error instanceof DomainError) {
      // A use case's refusal: its kind says the status; a code it names is sent as is, else the words name it.
      const { code, args, retryAfterSeconds } = error.options;
      if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
      const named = code ? { code, ...(args ? { args: [...args] } : {}) } : {};
      return reply.status(domainStatus[error.kind]).send({ detail: error.message, ...named });
    }
    if (error instanceof StreamDeletedError) return reply.status(404).send({ detail: messages.notFound });
    if (error instanceof WrongExpectedVersionError) {
      return reply.status(409).send({ detail: requestMessages.concurrentChange });
    }
    if (error instanceof EventSchemaError) {
      // A command produced data its event schema refuses: the input slipped past the route schema.
      request.log.warn({ err: error }, 'event schema refused a command');
      return reply.status(422).send({ detail: requestMessages.invalidData });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ detail: messages.tooManyRequests });
    if (status >= 400 && status < 500) {
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? requestMessages.unsupportedContentType
          : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? requestMessages.emptyBody
            : error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError
              ? requestMessages.notJson
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
