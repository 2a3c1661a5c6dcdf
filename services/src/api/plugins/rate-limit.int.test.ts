import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)('rate limits', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness({ env: { RATE_LIMIT_PER_MINUTE: '20' } });
  });
  afterAll(async () => h?.close());

  it('limits a signed-in owner as one account, whatever the address, with the spec text', async () => {
    const { authorization } = await h.owner();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const response = await h.app.inject({
        url: '/api/v1/assistants/',
        headers: { authorization },
        remoteAddress: `10.0.0.${i}`,
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429)
        expect(response.json().detail).toBe('Too many requests. Please try again later.');
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    // Another address, anonymous, is counted on its own.
    expect((await h.app.inject({ url: '/api/v1/health', remoteAddress: '10.9.9.9' })).statusCode).toBe(200);
  });

  it('answers CORS preflights for the headers the spec client sends', async () => {
    const preflight = await h.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/assistants/',
      headers: {
        origin: 'https://shop.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-requested-with',
      },
      remoteAddress: '10.5.5.5',
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('x-requested-with');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('limits anonymous callers per address, unknown URLs included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push((await h.app.inject({ url: `/api/v1/nothing-${i}`, remoteAddress: '10.1.1.1' })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });
});
