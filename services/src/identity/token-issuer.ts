import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export interface TokenClaims {
  accountId: string;
  tokenId: string;
  expiresAt: Date;
  /** The account's session generation when issued: a password reset moves it on, ending older tokens. */
  generation: number;
  /** The account's address when issued (its stream's key): the account can be found in the log while the read model lags. */
  email?: string;
}

/**
 * Signed, expiring bearer tokens (JWT, HS256). Each carries an id so that sign-out can revoke it
 * before it expires.
 */
export function createTokenIssuer(deps: { secret: Uint8Array; ttlSeconds: number; issuer?: string; now?: () => Date }) {
  const issuer = deps.issuer ?? 'kesher';
  const now = deps.now ?? (() => new Date());
  return {
    ttlSeconds: deps.ttlSeconds,
    async issue(accountId: string, generation = 0, email?: string): Promise<{ token: string; claims: TokenClaims }> {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const tokenId = randomUUID();
      // Generation 0 is left out, so tokens are as they were for accounts that never reset a password.
      const token = await new SignJWT({ ...(generation ? { gen: generation } : {}), ...(email ? { email } : {}) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(accountId)
        .setJti(tokenId)
        .setIssuer(issuer)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + deps.ttlSeconds)
        .sign(deps.secret);
      return {
        token,
        claims: {
          accountId,
          tokenId,
          expiresAt: new Date((issuedAt + deps.ttlSeconds) * 1000),
          generation,
          ...(email ? { email } : {}),
        },
      };
    },
    /** The claims of a valid token, or undefined for anything else (malformed, forged, expired). */
    async verify(token: string): Promise<TokenClaims | undefined> {
      try {
        const { payload } = await jwtVerify(token, deps.secret, { issuer, algorithms: ['HS256'], currentDate: now() });
        if (!payload.sub || !payload.jti || !payload.exp) return undefined;
        const generation = payload.gen ?? 0;
        if (typeof generation !== 'number' || !Number.isSafeInteger(generation)) return undefined;
        const email = typeof payload.email === 'string' ? payload.email : undefined;
        return {
          accountId: payload.sub,
          tokenId: payload.jti,
          expiresAt: new Date(payload.exp * 1000),
          generation,
          ...(email ? { email } : {}),
        };
      } catch {
        return undefined;
      }
    },
  };
}
export type TokenIssuer = ReturnType<typeof createTokenIssuer>;
