import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Which proxies' `X-Forwarded-For` / `X-Forwarded-Proto` to believe, in the forms Fastify's `trustProxy`
 * takes: `false` (the socket's address is the client's: the default), a hop count, a list of proxy
 * addresses / CIDRs (and proxy-addr's names `loopback`, `linklocal`, `uniquelocal`), or `true`.
 *
 * `true` believes any client that sends the header: every per-address limit is then bypassed by writing
 * a different address into it. Use it only where the only way in is through a proxy that overwrites it.
 */
export type TrustProxy = boolean | number | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED.has(entry) || isIP(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length || !address || prefix === undefined || !/^\d{1,3}$/.test(prefix)) return false;
  const family = isIP(address);
  return family !== 0 && Number(prefix) <= (family === 4 ? 32 : 128);
}

export const TrustProxySchema = z
  .string()
  .default('')
  .transform((raw, ctx): TrustProxy => {
    const value = raw.trim();
    if (value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.filter((entry) => !isAddressOrRange(entry));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `not an address, CIDR range, hop count or true/false: ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });
