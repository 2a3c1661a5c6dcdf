import { createAddressPolicy, normalizeHostname } from './address-policy.js';
import { systemResolver, type Resolver } from './guarded-lookup.js';
import { parseIp } from './ip-address.js';
import type { OutboundAllowlist } from './outbound-allowlist.js';
import { OutboundError, outboundErrors } from './outbound-error.js';

/** Checks an address before any work is queued for it (port; the routes take it). Throws OutboundError. */
export type OutboundTargetCheck = (url: string) => Promise<void>;

/**
 * The guard's answer for an address, without connecting: well formed, http(s), no credentials, and every
 * address its host resolves to allowed. The API asks it before it configures a crawler or starts a crawl,
 * so an owner who types a private address hears why at once instead of from a failed crawl. It is a first
 * word only: the fetch itself checks again where the socket resolves (a name may change its answer).
 */
export function createOutboundTargetCheck(deps: {
  allowlist: OutboundAllowlist;
  resolve?: Resolver;
}): OutboundTargetCheck {
  const policy = createAddressPolicy(deps.allowlist);
  const resolve = deps.resolve ?? systemResolver;
  return async (text) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw outboundErrors.invalidUrl(text);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw outboundErrors.unsupportedScheme(text, url.protocol.replace(/:$/, ''));
    if (url.username || url.password) throw outboundErrors.credentialsInUrl(text);
    const hostname = normalizeHostname(url.hostname);
    if (!hostname) throw outboundErrors.invalidUrl(text);
    if (parseIp(hostname)) {
      const verdict = policy.check(hostname, hostname);
      if (!verdict.allowed) throw outboundErrors.blockedAddress(url.href, hostname, hostname, verdict.kind);
      return;
    }
    let found;
    try {
      found = await resolve(hostname);
    } catch (error) {
      throw error instanceof OutboundError ? error : outboundErrors.unresolvable(url.href, error);
    }
    if (found.length === 0) throw outboundErrors.unresolvable(url.href);
    for (const entry of found) {
      const verdict = policy.check(hostname, entry.address);
      if (!verdict.allowed) throw outboundErrors.blockedAddress(url.href, hostname, entry.address, verdict.kind);
    }
  };
}
