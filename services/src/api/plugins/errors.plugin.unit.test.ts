import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorsPlugin } from './errors.plugin.js';
import { RequestLog } from './request-log.js';

/**
 * 500s used to be invisible on `make start` (no log at all). The API logs through pino: a failure with
 * its stack at `error`, any 5xx answer with its method, path and status; ordinary requests stay at debug.
 */
describe('what the API logs', () => {
  async function build() {
    const lines: Record<string, unknown>[] = [];
    const app = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
      logController: new RequestLog(),
    });
    await app.register(errorsPlugin);
    app.get('/boom', async () => {
      throw new Error('the database went away');
    });
    app.get('/sent', async (_request, reply) => reply.status(503).send({ detail: 'Busy' }));
    app.get('/fine', async () => ({ ok: true }));
    return { app, lines };
  }

  it('logs a failure with its stack at error level, and no internals in the answer', async () => {
    const { app, lines } = await build();
    const response = await app.inject({ url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      detail: 'Server error occurred. Please try again later.',
      code: 'common.serverError',
    });
    const failure = lines.find(
      (line) =>
        line.msg === 'request failed' && (line.err as { message?: string })?.message === 'the database went away',
    );
    expect(failure?.level).toBe(50);
    expect((failure?.err as { stack: string }).stack).toMatch(/Error: the database went away\n\s+at /);
    await app.close();
  });

  it('logs a 5xx that was sent rather than thrown, and nothing for ordinary requests at info', async () => {
    const { app, lines } = await build();
    await app.inject({ url: '/fine' });
    expect(lines.filter((line) => line.url === '/fine')).toEqual([]);
    await app.inject({ url: '/sent' });
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'request failed', method: 'GET', url: '/sent', statusCode: 503 }),
    );
    await app.close();
  });
});
