import { siteMessages } from '@kesher/contracts';
import type { BlockedRangeKind } from './address-policy.js';

/** Every way an outbound fetch can be refused or fail, as a code a worker can record and a client can translate. */
export type OutboundErrorReason =
  | 'invalid-url'
  | 'unsupported-scheme'
  | 'credentials-in-url'
  | 'blocked-address'
  | 'unresolvable'
  | 'unreachable'
  | 'timeout'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'bad-redirect'
  | 'aborted';

const RANGE_WORDS: Record<BlockedRangeKind | 'invalid', string> = {
  loopback: 'this machine (loopback)',
  private: 'a private network',
  'carrier-grade-nat': 'a carrier-grade NAT network',
  'unique-local': 'a private IPv6 network',
  'link-local': 'a link-local network',
  metadata: 'a cloud metadata service',
  unspecified: 'an unspecified address',
  multicast: 'a multicast group',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address range',
  invalid: 'an address that is not valid',
};

/**
 * A refused or failed outbound fetch. `message` is a sentence for the owner (it names the address but
 * never what lives there); `reason` is for code; `range` says which kind of address was refused.
 */
export class OutboundError extends Error {
  readonly name = 'OutboundError';
  constructor(
    readonly reason: OutboundErrorReason,
    message: string,
    readonly url: string,
    readonly range?: BlockedRangeKind | 'invalid',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export const outboundErrors = {
  invalidUrl: (url: string) => new OutboundError('invalid-url', siteMessages.invalidUrl(url), url),
  unsupportedScheme: (url: string, scheme: string) =>
    new OutboundError('unsupported-scheme', siteMessages.unsupportedScheme(scheme), url),
  credentialsInUrl: (url: string) => new OutboundError('credentials-in-url', siteMessages.credentialsInUrl, url),
  blockedAddress: (url: string, hostname: string, address: string, kind: BlockedRangeKind | 'invalid') =>
    new OutboundError(
      'blocked-address',
      hostname === address
        ? `${address} is in ${RANGE_WORDS[kind]} and is never fetched.`
        : `${hostname} points to ${address}, which is in ${RANGE_WORDS[kind]}, and is never fetched.`,
      url,
      kind,
    ),
  unresolvable: (url: string, cause?: unknown) =>
    new OutboundError('unresolvable', siteMessages.unresolvable(hostOf(url)), url, undefined, { cause }),
  unreachable: (url: string, cause?: unknown) =>
    new OutboundError('unreachable', siteMessages.unreachable(hostOf(url)), url, undefined, { cause }),
  timeout: (url: string, seconds: number) =>
    new OutboundError('timeout', siteMessages.timeout(hostOf(url), seconds), url),
  tooManyRedirects: (url: string, limit: number) =>
    new OutboundError('too-many-redirects', siteMessages.tooManyRedirects(limit), url),
  redirectLoop: (url: string) => new OutboundError('redirect-loop', siteMessages.redirectLoop, url),
  badRedirect: (url: string) => new OutboundError('bad-redirect', siteMessages.badRedirect, url),
  aborted: (url: string) => new OutboundError('aborted', siteMessages.aborted, url),
};

/** The OutboundError somewhere in a cause chain (HTTP clients wrap what a lookup function threw). */
export function findOutboundError(error: unknown): OutboundError | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof OutboundError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
