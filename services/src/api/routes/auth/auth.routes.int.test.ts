import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(
  `auth routes on real Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness();
    });
    afterAll(async () => h?.close());

    const register = (payload: unknown) =>
      h.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: payload as object });

    it('registers, signs in, reads /auth/me and signs out (the token then stops working)', async () => {
      const created = await register({ email: 'Noa@Example.com', password: 'Str0ng-Passw0rd!', display_name: 'Noa' });
      expect(created.statusCode).toBe(201);
      const session = created.json();
      expect(session).toMatchObject({
        token_type: 'bearer',
        user: { email: 'noa@example.com', displayName: 'Noa', username: 'Noa', providerId: 'password' },
      });

      const login = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'noa@example.com', password: 'Str0ng-Passw0rd!' },
      });
      expect(login.statusCode).toBe(200);
      const authorization = `Bearer ${login.json().access_token}`;
      const me = await h.app.inject({ url: '/api/v1/auth/me', headers: { authorization } });
      expect(me.json()).toMatchObject({ email: 'noa@example.com', uid: session.user.uid });

      expect(
        (await h.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization } })).statusCode,
      ).toBe(200);
      const after = await h.app.inject({ url: '/api/v1/auth/me', headers: { authorization } });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ detail: 'Authentication required. Please log in again.' });
      // The registration token is a different session and still works.
      expect(
        (await h.app.inject({ url: '/api/v1/auth/me', headers: { authorization: `Bearer ${session.access_token}` } }))
          .statusCode,
      ).toBe(200);
    });

    it('applies the password rules in order and reports the first failure', async () => {
      const cases: [string, string][] = [
        ['Short1!', 'Password must be at least 10 characters long'],
        ['lowercase-only-1', 'Password must contain at least one uppercase letter'],
        ['UPPERCASE-ONLY-1', 'Password must contain at least one lowercase letter'],
        ['No-Digits-Here', 'Password must contain at least one number'],
        ['NoSpecial123', 'Password must contain at least one special character'],
      ];
      for (const [password, message] of cases) {
        const response = await register({ email: 'rules@example.com', password });
        expect(response.statusCode).toBe(422);
        expect(response.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'password'], msg: message })]);
      }
    });

    it('refuses an invalid e-mail and an existing one with the spec texts', async () => {
      const invalid = await register({ email: 'not-an-email', password: 'Str0ng-Passw0rd!' });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().detail[0].msg).toBe('Please enter a valid email address.');
      await register({ email: 'taken@example.com', password: 'Str0ng-Passw0rd!' });
      const again = await register({ email: 'TAKEN@example.com', password: 'Other-Passw0rd!' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        detail: 'An account with this email already exists. Please try logging in instead.',
      });
    });

    it('lets exactly one of several simultaneous registrations of one address succeed', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, () => register({ email: 'race@example.com', password: 'Str0ng-Passw0rd!' })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    });

    it('answers unknown address and wrong password alike, then blocks after repeated failures', async () => {
      await register({ email: 'guarded@example.com', password: 'Str0ng-Passw0rd!' });
      const unknown = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'nobody@example.com', password: 'whatever' },
      });
      const wrong = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'guarded@example.com', password: 'wrong' },
      });
      expect(unknown.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.json()).toEqual(wrong.json());
      for (let i = 0; i < 4; i++)
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: 'guarded@example.com', password: 'wrong' },
        });
      const blocked = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'guarded@example.com', password: 'Str0ng-Passw0rd!' },
      });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ detail: 'Too many failed login attempts. Please try again later.' });
    });

    it('says clearly that Google sign-in is not configured', async () => {
      expect((await h.app.inject({ url: '/api/v1/auth/config' })).json()).toEqual({
        google_client_id: null,
        demo_accounts: false,
      });
      const google = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/google',
        payload: { id_token: 'x'.repeat(40) },
      });
      expect(google.statusCode).toBe(501);
      expect(google.json().detail).toMatch(/not configured/);
    });

    it('refuses forged and malformed tokens', async () => {
      for (const authorization of ['Bearer abc', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'Basic Zm9vOmJhcg==']) {
        const response = await h.app.inject({ url: '/api/v1/auth/me', headers: { authorization } });
        expect(response.statusCode).toBe(401);
      }
    });
  },
);

describe.skipIf(!gate.available)('Google sign-in through the API, with a local Google stand-in', () => {
  it('creates the account on first sign-in and signs the same account in afterwards', async () => {
    const { startGoogleStandIn } = await import('../../../testing/google-stand-in.js');
    const google = await startGoogleStandIn();
    const audience = 'kesher-test.apps.googleusercontent.com';
    const h = await createApiHarness({ env: { GOOGLE_CLIENT_ID: audience, GOOGLE_JWKS_URL: google.jwksUrl } });
    try {
      expect((await h.app.inject({ url: '/api/v1/auth/config' })).json().google_client_id).toBe(audience);
      const token = await google.idToken({ sub: '77', email: 'avi@example.com', name: 'Avi' }, { audience });
      const first = await h.app.inject({ method: 'POST', url: '/api/v1/auth/google', payload: { id_token: token } });
      expect(first.statusCode).toBe(200);
      expect(first.json().user).toMatchObject({
        email: 'avi@example.com',
        displayName: 'Avi',
        providerId: 'google.com',
      });
      const second = await h.app.inject({ method: 'POST', url: '/api/v1/auth/google', payload: { id_token: token } });
      expect(second.json().user.uid).toBe(first.json().user.uid);
      const forged = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/google',
        payload: { id_token: `${token.slice(0, -4)}AAAA` },
      });
      expect(forged.statusCode).toBe(401);
      // A Google-only account has no password: password sign-in is refused like any wrong password.
      const password = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'avi@example.com', password: 'anything' },
      });
      expect(password.statusCode).toBe(401);
    } finally {
      await h.close();
      await google.close();
    }
  });
});
