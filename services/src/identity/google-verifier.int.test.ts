import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleStandIn } from '../testing/google-stand-in.js';
import { createGoogleVerifier } from './google-verifier.js';

describe('Google ID token verification against a local JWKS stand-in', () => {
  let google: Awaited<ReturnType<typeof startGoogleStandIn>>;
  const audience = 'kesher-test.apps.googleusercontent.com';
  beforeAll(async () => {
    google = await startGoogleStandIn();
  });
  afterAll(async () => google?.close());

  it('accepts a valid token and refuses wrong audience, issuer, signer, expiry or unverified e-mail', async () => {
    const verify = createGoogleVerifier({ clientId: audience, jwksUrl: google.jwksUrl });
    const claims = { sub: '1098', email: 'Rina@Example.com', name: 'Rina', picture: 'https://example.com/r.png' };
    expect(await verify(await google.idToken(claims, { audience }))).toEqual({
      subject: '1098',
      email: 'rina@example.com',
      name: 'Rina',
      picture: 'https://example.com/r.png',
    });
    expect(await verify(await google.idToken(claims, { audience: 'someone-else' }))).toBeUndefined();
    expect(
      await verify(await google.idToken(claims, { audience, issuer: 'https://evil.example.com' })),
    ).toBeUndefined();
    expect(await verify(await google.idToken(claims, { audience, expiresInSeconds: -60 }))).toBeUndefined();
    expect(await verify(await google.idToken({ ...claims, email_verified: false }, { audience }))).toBeUndefined();
    const { privateKey: stranger } = await generateKeyPair('RS256');
    expect(await verify(await google.idToken(claims, { audience, key: stranger }))).toBeUndefined();
    expect(await verify('not.a.token')).toBeUndefined();
  });
});
