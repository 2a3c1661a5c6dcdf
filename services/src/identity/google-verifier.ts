import { createRemoteJWKSet, jwtVerify } from 'jose';

export interface GoogleIdentity {
  subject: string;
  email: string;
  name: string | null;
  picture: string | null;
}

/**
 * Verifies a Google ID token (from Google Identity Services) against Google's published keys, as
 * Google documents: signature by a key from the JWKS, `iss` accounts.google.com, `aud` our client id,
 * not expired, e-mail verified. The JWKS address is configurable so tests use a local stand-in.
 */
export function createGoogleVerifier(deps: { clientId: string; jwksUrl?: string }) {
  const keys = createRemoteJWKSet(new URL(deps.jwksUrl ?? 'https://www.googleapis.com/oauth2/v3/certs'));
  return async function verify(idToken: string): Promise<GoogleIdentity | undefined> {
    try {
      const { payload } = await jwtVerify(idToken, keys, {
        issuer: ['https://accounts.google.com', 'accounts.google.com'],
        audience: deps.clientId,
      });
      if (typeof payload.email !== 'string' || payload.email_verified !== true || !payload.sub) return undefined;
      return {
        subject: payload.sub,
        email: payload.email.toLowerCase(),
        name: typeof payload.name === 'string' ? payload.name : null,
        picture: typeof payload.picture === 'string' ? payload.picture : null,
      };
    } catch {
      return undefined;
    }
  };
}
export type GoogleVerifier = ReturnType<typeof createGoogleVerifier>;
