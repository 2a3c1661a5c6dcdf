import { createHash } from 'node:crypto';

/**
 * A limit's key for a value that must not be stored as it is (an address, an e-mail, a token): the scope
 * in clear, so the table still tells which limit a row is, and a hash of the value.
 */
export const hashedLimitKey = (scope: string, value: string) =>
  `${scope}:${createHash('sha256').update(`${scope}|${value}`).digest('base64url').slice(0, 32)}`;
