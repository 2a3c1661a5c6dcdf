import { findUnsafeText, unsafeTextMessage } from '@kesher/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Refuses a NUL or an unpaired surrogate anywhere in a request's body or query — every text field of
 * every route, present and future — with a 422 naming the field, the same shape as a schema failure.
 * Postgres cannot store either, so they used to surface as 500s from deep inside a command.
 *
 * Path parameters are ids that each route checks against its own pattern (a malformed thread id is the
 * spec's 400 THREAD_INVALID, not a 422), so they are left to the routes. Multipart uploads are parsed
 * later by their route, which cleans the file name itself.
 */
export const safeTextPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request, reply) => {
    for (const [part, value] of [
      ['body', request.body],
      ['querystring', request.query],
    ] as const) {
      const path = findUnsafeText(value);
      if (path)
        return reply
          .status(422)
          .send({ detail: [{ loc: [part, ...path], msg: unsafeTextMessage, type: 'invalid_text' }] });
    }
  });
});
