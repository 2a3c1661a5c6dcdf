import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimitCounters } from '../../platform/limits/limit-counters.js';
import { twoReplicas } from '../../platform/limits/testing/replicas.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { errorsPlugin } from './errors.plugin.js';
import { securityPlugin } from './security.plugin.js';

const gate = await postgresAvailability();
const TOO_MANY = 'Too many requests. Please try again later.';

/** One API process: the security plugin counting in the shared counters of its own pool. */
async function replica(sql: Parameters<typeof createLimitCounters>[0]['sql']) {
  const app = Fastify();
  await app.register(securityPlugin, { rateLimitPerMinute: 6, corsOrigins: [], counters: createLimitCounters({ sql }) });
  await app.register(errorsPlugin);
  app.get('/open', async () => ({ ok: true }));
  app.get('/other', async () => ({ ok: true }));
  app.post('/login', { config: { rateLimit: { max: 3, timeWindow: 60_000, keyGenerator: (request: { ip: string }) => `auth:${request.ip}` } } }, async () => ({ ok: true }));
  app.post('/register', { config: { rateLimit: { max: 3, timeWindow: 60_000, keyGenerator: (request: { ip: string }) => `auth:${request.ip}` } } }, async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe.skipIf(!gate.available)('the API-wide and per-route rate limits, shared by two API processes', () => {
  let replicas: Awaited<ReturnType<typeof twoReplicas>>;
  let a: Awaited<ReturnType<typeof replica>>;
  let b: Awaited<ReturnType<typeof replica>>;
  beforeAll(async () => {
    replicas = await twoReplicas();
    [a, b] = await Promise.all([replica(replicas.a), replica(replicas.b)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await replicas?.close();
  });

  it('holds one address to the per-minute figure across both processes, on every route together, with the text and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await (i % 2 ? a : b).inject({ url: i % 3 ? '/open' : '/other', remoteAddress: '203.0.113.5' });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json().detail).toBe(TOO_MANY);
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(50);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // Another address has its own allowance.
    expect((await a.inject({ url: '/open', remoteAddress: '203.0.113.6' })).statusCode).toBe(200);
  });

  it("a route with its own limit counts apart from the others, as the plugin's own store does, across both processes", async () => {
    const login = await Promise.all(Array.from({ length: 5 }, (_, i) => (i % 2 ? a : b).inject({ method: 'POST', url: '/login', remoteAddress: '198.51.100.9' })));
    expect(login.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 429, 429]);
    expect((await b.inject({ method: 'POST', url: '/register', remoteAddress: '198.51.100.9' })).statusCode).toBe(200);
  });
});
