import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * What the API's log says about requests. Every request at `debug` (off at the default `info` level, so a
 * busy server's log is not one line per request); an answer of 500 or above at `error` with its method,
 * path and status. The cause, with its stack, is logged by the error handler (errors.plugin.ts) right
 * before; this line also catches 5xx answers that were sent rather than thrown.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const entry = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error || reply.statusCode >= 500) reply.log.error({ ...entry, err: error ?? undefined }, 'request failed');
    else reply.log.debug(entry, 'request completed');
  }
}
