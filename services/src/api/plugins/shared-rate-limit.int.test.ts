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
  return app(createLimitCounters({ sql }));
}

async function app(counters: ReturnType<typeof createLimitCounters>) {
  const server = Fastify();
  await server.register(securityPlugin, { rateLimitPerMinute: 6, corsOrigins: [], counters });
  await server.register(errorsPlugin);
  server.get('/open', async () => ({ ok: true }));
  server.get('/other', async () => ({ ok: true }));
  server.post(
    '/login',
    {
      config: {
        rateLimit: { max: 3, timeWindow: 60_000, keyGenerator: (request: { ip: string }) => `auth:${request.ip}` },
      },
    },
    async () => ({ ok: true }),
  );
  server.post(
    '/register',
    {
      config: {
        rateLimit: { max: 3, timeWindow: 60_000, keyGenerator: (request: { ip: string }) => `auth:${request.ip}` },
      },
    },
    async () => ({ ok: true }),
  );
  await server.ready();
  return server;
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
    const login = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        (i % 2 ? a : b).inject({ method: 'POST', url: '/login', remoteAddress: '198.51.100.9' }),
      ),
    );
    expect(login.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 429, 429]);
    expect((await b.inject({ method: 'POST', url: '/register', remoteAddress: '198.51.100.9' })).statusCode).toBe(200);
  });

  it('answers without counting while the database does not answer, instead of a 500 from the limiter', async () => {
    const down = await app(
      createLimitCounters({ sql: { query: async () => Promise.reject(new Error('connection refused')) } }),
    );
    try {
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () => down.inject({ url: '/open', remoteAddress: '203.0.113.7' })),
      );
      expect(statuses.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    } finally {
      await down.close();
    }
  });
});
