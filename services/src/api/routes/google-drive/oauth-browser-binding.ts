import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Ties a Google Drive consent flow to the browser that started it (the OAuth 2.0 security best current
 * practice's CSRF defence). The sealed `state` says which owner and assistant the flow is for, but it is
 * only a string in an address: anyone holding the consent link could finish it in their own browser and
 * have their Google grant land on that owner's account. So starting a flow also sets a random secret as
 * an HttpOnly cookie scoped to the callback, and the state carries only its digest; the callback is
 * completed only by a browser presenting the secret whose digest the state names.
 *
 * SameSite=Lax: the callback is a top-level navigation from Google's page, which Lax cookies accompany.
 */
export const BROWSER_BINDING_COOKIE = 'kesher_drive_oauth';

const digest = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** A fresh binding: the secret goes to the browser (cookie), its digest into the sealed state. */
export function newBrowserBinding(): { secret: string; digest: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, digest: digest(secret) };
}

/** The browser presented the secret whose digest the state carries. */
export function browserMatches(presented: string | undefined, expectedDigest: string): boolean {
  if (!presented) return false;
  const given = Buffer.from(digest(presented));
  const expected = Buffer.from(expectedDigest);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface BindingCookieOptions {
  /** The callback's path as the browser sees it: the cookie goes nowhere else. */
  path: string;
  /** Over HTTPS the cookie is never sent in clear. */
  secure: boolean;
}

/** The Set-Cookie value that hands the browser its secret for `maxAgeSeconds`. */
export function bindingCookie(secret: string, maxAgeSeconds: number, options: BindingCookieOptions): string {
  return [
    `${BROWSER_BINDING_COOKIE}=${secret}`,
    `Path=${options.path}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The Set-Cookie value that forgets it (a flow's secret is good for one return). */
export const clearedBindingCookie = (options: BindingCookieOptions) => bindingCookie('', 0, options);

/** The binding secret in a Cookie header, if the browser sent one. */
export function presentedBinding(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === BROWSER_BINDING_COOKIE && value.length) return value.join('=') || undefined;
  }
  return undefined;
}
