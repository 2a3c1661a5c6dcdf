import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

/**
 * A local stand-in for Google's token keys: serves a JWKS the way https://www.googleapis.com/oauth2/v3/certs
 * does, and signs ID tokens with the matching private key, as Google Identity Services would issue them.
 */
export async function startGoogleStandIn() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = 'stand-in-key-1';
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const server: Server = createServer((request, response) => {
    if (request.url !== '/oauth2/v3/certs') {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' })
      .end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    async idToken(
      claims: Record<string, unknown>,
      options: { audience: string; expiresInSeconds?: number; key?: CryptoKey; issuer?: string },
    ) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ email_verified: true, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer(options.issuer ?? 'https://accounts.google.com')
        .setAudience(options.audience)
        .setIssuedAt(now)
        .setExpirationTime(now + (options.expiresInSeconds ?? 3600))
        .sign(options.key ?? privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
