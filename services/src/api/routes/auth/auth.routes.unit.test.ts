import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import type { Authenticator } from '../../../identity/authenticator.js';
import type { EmailOwnership } from '../../../identity/email-ownership.js';
import type { LoginThrottle } from '../../../identity/login-throttle.js';
import { createPasswordHasher, type PasswordHasher } from '../../../identity/password-hasher.js';
import type { SessionStore } from '../../../identity/session.store.js';
import { createTokenIssuer } from '../../../identity/token-issuer.js';
import { errorsPlugin } from '../../plugins/errors.plugin.js';
import { responseSerializerCompiler } from '../../plugins/response-serializer.js';
import { authRoutes } from './auth.routes.js';

/**
 * Sign-in must not tell which addresses have accounts by its timing (issue 10 item 11): the password is
 * put through the same key derivation whether or not an account exists. Checked by watching the hasher,
 * not a stopwatch, so that it cannot flake on a busy machine.
 */
describe('sign-in with an unknown address', () => {
  async function build() {
    const real = createPasswordHasher({ N: 2 ** 10 });
    const calls: { password: string; stored: string | null | undefined }[] = [];
    const passwords: PasswordHasher = {
      hash: real.hash,
      verify: async (password, stored) => {
        calls.push({ password, stored });
        return real.verify(password, stored);
      },
    };
    const known = {
      id: 'acc-1',
      email: 'known@example.com',
      displayName: null,
      photoUrl: null,
      provider: 'password',
      passwordHash: await real.hash('Str0ng-Passw0rd!'),
    };
    const google = { ...known, id: 'acc-2', email: 'google@example.com', provider: 'google', passwordHash: null };
    const sessions = {
      accountByEmail: async (email: string) => [known, google].find((a) => a.email === email),
      // A sign-in is recorded as the owner's activity (the retention run counts inactivity from it).
      signedIn: async () => {},
    } as unknown as SessionStore;
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(responseSerializerCompiler);
    await app.register(errorsPlugin);
    await app.register(
      authRoutes({
        passwords,
        tokens: createTokenIssuer({ secret: new TextEncoder().encode('s'.repeat(32)), ttlSeconds: 60 }),
        sessions,
        // This suite is about the password check's cost; the throttle (in Postgres) has its own tests.
        throttle: {
          retryAfterMs: async () => 0,
          recordFailure: async () => {},
          recordSuccess: async () => {},
        } satisfies LoginThrottle,
        authenticator: {} as Authenticator,
        registration: (async () => ({ accountId: 'new' })) as never,
        ownership: {} as EmailOwnership,
        google: null,
        demoAccounts: false,
      }),
      { prefix: '/api/v1' },
    );
    const login = (email: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
    return { app, calls, login };
  }

  it('derives a key from the password for an unknown address and a Google-only account, as for a known one', async () => {
    const { app, calls, login } = await build();
    const known = await login('known@example.com', 'wrong-password');
    const unknown = await login('nobody@example.com', 'wrong-password');
    const googleOnly = await login('google@example.com', 'wrong-password');
    expect([known.statusCode, unknown.statusCode, googleOnly.statusCode]).toEqual([401, 401, 401]);
    expect(unknown.json()).toEqual(known.json());
    expect(calls.map((c) => c.password)).toEqual(['wrong-password', 'wrong-password', 'wrong-password']);
    // The hasher itself stands in a dummy hash of its own cost when there is none.
    expect(calls.slice(1).map((c) => c.stored ?? null)).toEqual([null, null]);
    expect((await login('known@example.com', 'Str0ng-Passw0rd!')).statusCode).toBe(200);
    await app.close();
  });

  it('the dummy check costs a real key derivation with the same parameters', async () => {
    const hasher = createPasswordHasher({ N: 2 ** 14 });
    const stored = await hasher.hash('Str0ng-Passw0rd!');
    await hasher.verify('x', null); // the dummy is made once, on first use
    // Several runs each, compared by their fastest: a derivation at 2^14 costs milliseconds, a skipped one nothing.
    const fastest = async (run: () => Promise<unknown>) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        await run();
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    const withAccount = await fastest(() => hasher.verify('wrong', stored));
    const withoutAccount = await fastest(() => hasher.verify('wrong', null));
    expect(await hasher.verify('Str0ng-Passw0rd!', null)).toBe(false);
    expect(withoutAccount).toBeGreaterThan(withAccount / 4);
  });
});
