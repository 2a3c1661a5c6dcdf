import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { freePort } from '../../testing/processes.js';
import { postgresAvailability } from '../../testing/test-database.js';

const gate = await postgresAvailability();
const TOO_MANY = { detail: 'Too many requests. Please try again later.' };
const TOO_MANY_LOGINS = { detail: 'Too many failed login attempts. Please try again later.' };
const PASSWORD = 'Str0ng-Passw0rd!';

/**
 * Issue 10 item 4: every per-address limit was bypassed by writing another address into X-Forwarded-For,
 * and spoofed failed logins locked real owners out. Item 9: /metrics was public. Item 10: HSTS over HTTP.
 */
describe.skipIf(!gate.available)('addresses, sign-in throttling and operator surfaces', () => {
  describe('with no proxy trusted (the default)', () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness();
    });
    afterAll(async () => h?.close());

    const register = (email: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        remoteAddress,
        headers,
        payload: { email, password: PASSWORD },
      });
    const login = (email: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
      h.app.inject({ method: 'POST', url: '/api/v1/auth/login', remoteAddress, headers, payload: { email, password } });

    it('holds a flood of registrations with rotating X-Forwarded-For to the per-address limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const response = await register(
          `flood${i}@example.com`,
          { 'x-forwarded-for': `198.51.100.${i + 1}` },
          '203.0.113.50',
        );
        statuses.push(response.statusCode);
        if (response.statusCode === 429) expect(response.json()).toMatchObject(TOO_MANY);
      }
      expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
      expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    });

    it("lets the owner sign in from their own address while a stranger's guesses (spoofed or not) are refused", async () => {
      await register('owner@example.com', {}, '10.1.1.1');
      // The stranger claims to be at the owner's address; the socket's address is what counts.
      for (let i = 0; i < 8; i++)
        await login('owner@example.com', `guess-${i}`, '203.0.113.66', { 'x-forwarded-for': '198.51.100.7' });
      const stranger = await login('owner@example.com', `guess-more`, '203.0.113.66');
      expect(stranger.statusCode).toBe(429);
      expect(stranger.json()).toMatchObject(TOO_MANY_LOGINS);
      expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);
      // Even the right password waits out the backoff at the guessing address: guesses are not checked there.
      expect((await login('owner@example.com', PASSWORD, '203.0.113.66')).statusCode).toBe(429);

      const owner = await login('owner@example.com', PASSWORD, '198.51.100.7');
      expect(owner.statusCode).toBe(200);
    });

    it('still slows a guess at one account from many addresses, except where the owner signed in before', async () => {
      await register('target@example.com', {}, '10.2.2.2');
      expect((await login('target@example.com', PASSWORD, '192.0.2.10')).statusCode).toBe(200);
      for (let i = 0; i < 10; i++)
        expect((await login('target@example.com', `guess-${i}`, `203.0.113.${100 + i}`)).statusCode).toBe(401);
      const fromNewAddress = await login('target@example.com', `guess-next`, '203.0.113.200');
      expect(fromNewAddress.statusCode).toBe(429);
      expect(fromNewAddress.json()).toMatchObject(TOO_MANY_LOGINS);
      expect((await login('target@example.com', PASSWORD, '192.0.2.10')).statusCode).toBe(200);
    });

    it('sends HSTS only over HTTPS, and believes no X-Forwarded-Proto from an untrusted client', async () => {
      const plain = await h.app.inject({ url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      expect(plain.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
    });

    it('hides /metrics from the internet: the same 404 as any unknown path', async () => {
      const metrics = await h.app.inject({ url: '/api/v1/metrics' });
      const unknown = await h.app.inject({ url: '/api/v1/no-such-thing' });
      expect(metrics.statusCode).toBe(404);
      expect(metrics.body).toBe(unknown.body);
    });
  });

  describe('with TRUST_PROXY naming the proxy in front', () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness({ env: { TRUST_PROXY: '127.0.0.1' } });
    });
    afterAll(async () => h?.close());

    it("takes the client's address from the proxy's X-Forwarded-For, and HTTPS from its X-Forwarded-Proto", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const response = await h.app.inject({
          method: 'POST',
          url: '/api/v1/auth/register',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
          payload: { email: `behind-proxy${i}@example.com`, password: PASSWORD },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual(Array(40).fill(201));
      // A client that is not the proxy is still its own address, whatever it claims.
      const direct = await h.app.inject({
        url: '/api/v1/health',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(direct.headers['strict-transport-security']).toBeUndefined();
      const proxied = await h.app.inject({
        url: '/api/v1/health',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000');
    });
  });

  describe('metrics for the operator', () => {
    it('answers the operator token on the API port, and nobody else', async () => {
      const token = 'operator-token-0123456789';
      const h = await createApiHarness({ env: { METRICS_TOKEN: token } });
      try {
        const unknown = await h.app.inject({ url: '/api/v1/no-such-thing' });
        for (const authorization of [
          undefined,
          'Bearer wrong-token-0123456789',
          `Basic ${token}`,
          `Bearer ${token}x`,
        ]) {
          const refused = await h.app.inject({
            url: '/api/v1/metrics',
            headers: authorization ? { authorization } : {},
          });
          expect(refused.statusCode, authorization).toBe(404);
          expect(refused.body).toBe(unknown.body);
        }
        const served = await h.app.inject({ url: '/api/v1/metrics', headers: { authorization: `Bearer ${token}` } });
        expect(served.statusCode).toBe(200);
        expect(served.body).toContain('# HELP');
      } finally {
        await h.close();
      }
    });

    it('serves them on a separate operator port bound to 127.0.0.1, and not on the public one', async () => {
      const port = await freePort();
      const h = await createApiHarness({ env: { METRICS_PORT: String(port) } });
      try {
        const body = await new Promise<string>((resolve, reject) => {
          httpRequest({ host: '127.0.0.1', port, path: '/metrics' }, (response) => {
            let text = '';
            response.on('data', (chunk) => (text += chunk));
            response.on('end', () =>
              response.statusCode === 200 ? resolve(text) : reject(new Error(`status ${response.statusCode}`)),
            );
          })
            .on('error', reject)
            .end();
        });
        expect(body).toContain('# HELP');
        expect((await h.app.inject({ url: '/api/v1/metrics' })).statusCode).toBe(404);
      } finally {
        await h.close();
      }
      // Closed with the API.
      await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    });
  });
});
