import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { outboundErrors } from './outbound-error.js';

/** Name resolution as the guard needs it: every address of a name. Tests pass a fixed table. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * The `lookup` handed to the socket: it resolves the name itself and refuses before any connection is
 * made when an address is not allowed. Because the check happens where the socket gets its address,
 * a name that answered with a public address a moment ago and a private one now (DNS rebinding) is
 * judged on the address actually used, and every redirect hop passes through it again.
 * One blocked address refuses the name: a name that mixes public and private answers is not trusted.
 */
export function guardedLookup(deps: { policy: AddressPolicy; resolve: Resolver; url: string }): LookupFunction {
  const { policy, resolve, url } = deps;
  return ((
    hostname: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname).then(
      (found) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? found.filter((entry) => entry.family === options.family)
            : found;
        if (wanted.length === 0) return callback(outboundErrors.unresolvable(url), [], 0);
        for (const entry of wanted) {
          const verdict = policy.check(hostname, entry.address);
          if (!verdict.allowed)
            return callback(outboundErrors.blockedAddress(url, hostname, entry.address, verdict.kind), [], 0);
        }
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: unknown) => callback(outboundErrors.unresolvable(url, error), [], 0),
    );
  }) as LookupFunction;
}
