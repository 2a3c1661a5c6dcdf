import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { waitUntil } from '../../../testing/processes.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/**
 * Issue 23: POST /auth/register answered 500 "account missing after registration" whenever the accounts
 * read model lagged (seen under load). Here the projector is stopped outright: the registration must still
 * answer 201 with the session it decided, and the token works once the read model catches up.
 */
describe.skipIf(!gate.available)('registration while the accounts read model is behind', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness();
  });
  afterAll(async () => h?.close());

  it('answers 201 with the new account and a session though the projector has not applied it', async () => {
    await h.platform.projector.stop();
    const created = await h.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email: 'Lag@Example.com', password: 'Str0ng-Passw0rd!', display_name: 'Lag' } });
    expect(created.statusCode).toBe(201);
    const session = created.json();
    expect(session).toMatchObject({
      token_type: 'bearer',
      user: { email: 'lag@example.com', displayName: 'Lag', username: 'Lag', providerId: 'password', emailVerified: false, photoURL: null },
    });
    expect(session.user.uid).toMatch(/^[0-9a-f-]{36}$/);
    // The read model really was behind: the account is not there yet.
    expect((await h.platform.sql.query(`SELECT 1 FROM accounts WHERE email = 'lag@example.com'`)).rows).toHaveLength(0);

    await h.platform.projector.start();
    const me = await waitUntil(
      async () => {
        const response = await h.app.inject({ url: '/api/v1/auth/me', headers: { authorization: `Bearer ${session.access_token}` } });
        return response.statusCode === 200 ? response : undefined;
      },
      { what: 'the new account to be signed in once the projector caught up' },
    );
    expect(me!.json()).toMatchObject({ uid: session.user.uid, email: 'lag@example.com' });
  });
});
