import { cidrContains, embeddedIpv4, parseCidr, parseIp, type Cidr, type IpBytes } from './ip-address.js';
import type { OutboundAllowlist } from './outbound-allowlist.js';

/** Why an address may not be fetched for a user. Each kind gets its own words in the refusal. */
export type BlockedRangeKind =
  | 'loopback'
  | 'private'
  | 'carrier-grade-nat'
  | 'unique-local'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

const range = (text: string) => parseCidr(text)!;

/**
 * Addresses that never belong to a website on the internet. The cloud metadata addresses come first so
 * that 169.254.169.254 is named for what it is, not only as link-local.
 */
const BLOCKED: ReadonlyArray<{ cidr: Cidr; kind: BlockedRangeKind }> = [
  { cidr: range('169.254.169.254/32'), kind: 'metadata' },
  { cidr: range('169.254.170.2/32'), kind: 'metadata' }, // container task metadata
  { cidr: range('fd00:ec2::254/128'), kind: 'metadata' },
  { cidr: range('0.0.0.0/32'), kind: 'unspecified' },
  { cidr: range('0.0.0.0/8'), kind: 'reserved' }, // "this network"
  { cidr: range('127.0.0.0/8'), kind: 'loopback' },
  { cidr: range('10.0.0.0/8'), kind: 'private' },
  { cidr: range('172.16.0.0/12'), kind: 'private' },
  { cidr: range('192.168.0.0/16'), kind: 'private' },
  { cidr: range('100.64.0.0/10'), kind: 'carrier-grade-nat' },
  { cidr: range('169.254.0.0/16'), kind: 'link-local' },
  { cidr: range('192.0.0.0/24'), kind: 'reserved' }, // IETF protocol assignments
  { cidr: range('192.0.2.0/24'), kind: 'reserved' }, // documentation
  { cidr: range('198.18.0.0/15'), kind: 'reserved' }, // benchmarking
  { cidr: range('198.51.100.0/24'), kind: 'reserved' },
  { cidr: range('203.0.113.0/24'), kind: 'reserved' },
  { cidr: range('224.0.0.0/4'), kind: 'multicast' },
  { cidr: range('255.255.255.255/32'), kind: 'broadcast' },
  { cidr: range('240.0.0.0/4'), kind: 'reserved' },
  { cidr: range('::/128'), kind: 'unspecified' },
  { cidr: range('::1/128'), kind: 'loopback' },
  { cidr: range('fc00::/7'), kind: 'unique-local' },
  { cidr: range('fe80::/10'), kind: 'link-local' },
  { cidr: range('fec0::/10'), kind: 'reserved' }, // old site-local
  { cidr: range('ff00::/8'), kind: 'multicast' },
  { cidr: range('100::/64'), kind: 'reserved' }, // discard-only
  { cidr: range('2001::/32'), kind: 'reserved' }, // Teredo: the IPv4 host inside is obfuscated, so refuse the lot
  { cidr: range('2001:db8::/32'), kind: 'reserved' },
];

/**
 * The kind of non-public range an address is in, or null for an ordinary internet address. IPv6 forms
 * that carry an IPv4 address are judged by that address too (`::ffff:10.0.0.1` is private).
 */
export function classifyAddress(address: string | IpBytes): BlockedRangeKind | 'invalid' | null {
  const bytes = typeof address === 'string' ? parseIp(address) : address;
  if (!bytes) return 'invalid';
  const kindOf = (candidate: IpBytes) => BLOCKED.find((entry) => cidrContains(entry.cidr, candidate))?.kind ?? null;
  const direct = kindOf(bytes);
  if (direct) return direct;
  const inner = embeddedIpv4(bytes);
  return inner ? kindOf(inner) : null;
}

/** What the guard decided for one host and one of its addresses. */
export type AddressVerdict = { allowed: true } | { allowed: false; kind: BlockedRangeKind | 'invalid' };

/**
 * The one decision every outbound connection goes through: an address in a non-public range is refused
 * unless the allowlist names the host or covers the address. Host names are compared without a trailing
 * dot and case-insensitively, as DNS does.
 */
export interface AddressPolicy {
  check(hostname: string, address: string): AddressVerdict;
  /** True when the host is named in the allowlist (then whatever it resolves to is allowed). */
  hostAllowed(hostname: string): boolean;
}

export function createAddressPolicy(allowlist: OutboundAllowlist): AddressPolicy {
  const hostAllowed = (hostname: string) => allowlist.hosts.has(normalizeHostname(hostname));
  return {
    hostAllowed,
    check(hostname, address) {
      const bytes = parseIp(address);
      if (!bytes) return { allowed: false, kind: 'invalid' };
      const kind = classifyAddress(bytes);
      if (kind === null) return { allowed: true };
      if (hostAllowed(hostname)) return { allowed: true };
      const inner = embeddedIpv4(bytes);
      if (allowlist.ranges.some((cidr) => cidrContains(cidr, bytes) || (inner !== null && cidrContains(cidr, inner))))
        return { allowed: true };
      return { allowed: false, kind };
    },
  };
}

export const normalizeHostname = (hostname: string) =>
  hostname
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
