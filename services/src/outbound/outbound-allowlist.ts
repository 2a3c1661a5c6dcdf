import { z } from 'zod';
import { parseCidr, type Cidr } from './ip-address.js';
import { normalizeHostname } from './address-policy.js';

/**
 * `OUTBOUND_ALLOWLIST`: comma-separated host names, addresses or CIDRs that outbound fetches may reach
 * even though they are loopback or private. Empty by default and in production; the tests' local site
 * (served on 127.0.0.1) is the reason it exists.
 */
export interface OutboundAllowlist {
  hosts: ReadonlySet<string>;
  ranges: readonly Cidr[];
}

export const emptyOutboundAllowlist: OutboundAllowlist = { hosts: new Set(), ranges: [] };

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** Parses the setting; throws with the offending entry named, so a typo stops the process at start. */
export function parseOutboundAllowlist(text: string | undefined): OutboundAllowlist {
  const hosts = new Set<string>();
  const ranges: Cidr[] = [];
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const cidr = parseCidr(entry);
    if (cidr) ranges.push(cidr);
    else if (!entry.includes('/') && HOSTNAME.test(normalizeHostname(entry))) hosts.add(normalizeHostname(entry));
    else throw new Error(`OUTBOUND_ALLOWLIST: "${entry}" is neither a host name, an address nor a CIDR range`);
  }
  return { hosts, ranges };
}

/** For the configuration schema: `OUTBOUND_ALLOWLIST: OutboundAllowlistSchema`. */
export const OutboundAllowlistSchema = z
  .string()
  .optional()
  .transform((text, context) => {
    try {
      return parseOutboundAllowlist(text);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
