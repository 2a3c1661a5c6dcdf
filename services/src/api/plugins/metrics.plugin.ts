import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Registry } from 'prom-client';

export interface OperatorMetricsOptions {
  registry: Registry;
  /** `/api/v1/metrics` answers only `Authorization: Bearer <token>`; unset, it is not there (404). */
  token?: string;
  /** A separate operator port serving `/metrics`, opened when the API listens and closed with it. */
  port?: number;
  /** Where the operator port listens: the loopback interface unless said otherwise. */
  host?: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Metrics are for the operator, never the internet (they tell who uses the product and how much). On
 * the public port they answer only to the operator's token, and anyone else gets the same 404 as any
 * unknown path; or they are served on their own port, bound to 127.0.0.1 by default, for a Prometheus
 * on the same host or network.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, options: OperatorMetricsOptions) => {
  const expected = options.token ? digest(options.token) : undefined;
  const send = async (reply: FastifyReply) =>
    reply.header('content-type', options.registry.contentType).send(await options.registry.metrics());

  app.get('/api/v1/metrics', { schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization;
    const presented = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    // Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first differing byte.
    if (!expected || !presented || !timingSafeEqual(digest(presented), expected)) return reply.callNotFound();
    return send(reply);
  });

  if (options.port === undefined) return;
  const operator = Fastify();
  operator.get('/metrics', async (_request, reply) => send(reply));
  // Opened when the API is ready (a port already taken fails the start, loudly) and closed with it.
  app.addHook('onReady', async () => {
    const address = await operator.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
    app.log.info(`operator metrics at ${address}/metrics`);
  });
  app.addHook('onClose', async () => operator.close());
});
