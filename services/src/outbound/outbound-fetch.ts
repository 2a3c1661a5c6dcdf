import type { LookupFunction } from 'node:net';
import { createAddressPolicy, normalizeHostname } from './address-policy.js';
import { guardedLookup, systemResolver, type Resolver } from './guarded-lookup.js';
import { parseIp } from './ip-address.js';
import type { OutboundAllowlist } from './outbound-allowlist.js';
import { OutboundError, outboundErrors } from './outbound-error.js';

/** One request on the wire, redirects not followed: what an HTTP client adapter has to do. */
export interface HopRequest {
  url: URL;
  headers: Record<string, string>;
  /** Must be used for every connection of this hop: it is the SSRF guard. */
  lookup: LookupFunction;
  /** Read at most this many body bytes (after decompression); more is cut off and flagged. */
  maxBytes: number;
  /** For the whole hop: connection, headers and body. */
  timeoutMs: number;
  connectTimeoutMs: number;
  signal?: AbortSignal;
  /** GET when absent. */
  method?: string;
  /** The request body (API actions); none when absent. */
  body?: string;
}

export interface HopResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Empty for redirects: their bodies are never read. */
  body: Uint8Array;
  truncated: boolean;
  /** The peer's address as the socket saw it, when the client reports it. */
  remoteAddress: string | null;
}

/**
 * The port an HTTP client adapter implements (Node's http/https client, dressed as a browser for the crawler). It throws OutboundError for
 * every failure (timeouts, refused connections, the guard's refusals passed through from `lookup`).
 */
export type HttpTransport = (request: HopRequest) => Promise<HopResponse>;

export interface OutboundRequest {
  url: string;
  /** Extra request headers, e.g. If-None-Match / If-Modified-Since for a change-aware recrawl. */
  headers?: Record<string, string>;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** GET when absent (the crawler); API actions send POST, PUT, PATCH, DELETE with a body. */
  method?: string;
  body?: string;
}

export interface OutboundResponse {
  requestedUrl: string;
  /** Where the content came from, after redirects. */
  url: string;
  /** Every address the request was redirected to, in order (the final one last). */
  redirects: string[];
  status: number;
  headers: Record<string, string>;
  /** The media type without parameters, lower case (`text/html`), or null when the server sent none. */
  contentType: string | null;
  body: Uint8Array;
  /** True when the body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
  elapsedMs: number;
}

/** The one fetch for everything Kesher requests on a user's behalf (crawler, single-URL fetch, actions). */
export type OutboundFetch = (request: OutboundRequest) => Promise<OutboundResponse>;

export interface OutboundLimits {
  /** Per page: spec §9 "300 KB per file". */
  maxBytes: number;
  /** Whole request, redirects included. */
  timeoutMs: number;
  connectTimeoutMs: number;
  maxRedirects: number;
}

export const defaultOutboundLimits: OutboundLimits = {
  maxBytes: 300 * 1024,
  timeoutMs: 20_000,
  connectTimeoutMs: 10_000,
  maxRedirects: 5,
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry a user's secrets and must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export interface OutboundFetchDeps {
  transport: HttpTransport;
  allowlist: OutboundAllowlist;
  /** Name resolution; the system's by default, a fixed table in tests. */
  resolve?: Resolver;
  limits?: Partial<OutboundLimits>;
  now?: () => number;
}

/**
 * Builds the guarded fetch. Each hop is checked before it is made: a well-formed http(s) address without
 * credentials, and, when the host is written as an address, an allowed address; a host name is checked
 * where the socket resolves it (see guardedLookup). Redirects are followed here, not by the client, so
 * every hop gets the same checks, loops are caught and the hop count is ours.
 */
export function createOutboundFetch(deps: OutboundFetchDeps): OutboundFetch {
  const policy = createAddressPolicy(deps.allowlist);
  const resolve = deps.resolve ?? systemResolver;
  const limits = { ...defaultOutboundLimits, ...deps.limits };
  const now = deps.now ?? Date.now;

  return async (request) => {
    const started = now();
    const maxBytes = request.maxBytes ?? limits.maxBytes;
    const timeoutMs = request.timeoutMs ?? limits.timeoutMs;
    const maxRedirects = request.maxRedirects ?? limits.maxRedirects;
    const seen = new Set<string>();
    const redirects: string[] = [];
    let headers = { ...request.headers };
    let method = request.method ?? 'GET';
    let body = request.body;
    let url = checkedUrl(request.url);
    const originalOrigin = url.origin;

    for (;;) {
      if (request.signal?.aborted) throw outboundErrors.aborted(url.href);
      seen.add(withoutFragment(url));
      checkLiteralAddress(url);
      const remaining = timeoutMs - (now() - started);
      if (remaining <= 0) throw outboundErrors.timeout(url.href, Math.round(timeoutMs / 1000));
      const hop = await deps
        .transport({
          url,
          headers,
          lookup: guardedLookup({ policy, resolve, url: url.href }),
          maxBytes,
          timeoutMs: remaining,
          connectTimeoutMs: Math.min(limits.connectTimeoutMs, remaining),
          ...(request.signal ? { signal: request.signal } : {}),
          ...(method !== 'GET' ? { method } : {}),
          ...(body !== undefined ? { body } : {}),
        })
        .catch((error: unknown) => {
          if (error instanceof OutboundError && error.reason === 'timeout')
            throw outboundErrors.timeout(url.href, Math.round(timeoutMs / 1000));
          throw error;
        });
      // Belt and braces: the address the socket really used must pass too.
      if (hop.remoteAddress) {
        const verdict = policy.check(normalizeHostname(url.hostname), hop.remoteAddress);
        if (!verdict.allowed)
          throw outboundErrors.blockedAddress(
            url.href,
            normalizeHostname(url.hostname),
            hop.remoteAddress,
            verdict.kind,
          );
      }

      const location = hop.headers.location;
      if (REDIRECTS.has(hop.status) && location !== undefined) {
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw outboundErrors.badRedirect(url.href);
        }
        next = checkedUrl(next.href);
        if (seen.has(withoutFragment(next))) throw outboundErrors.redirectLoop(request.url);
        if (redirects.length >= maxRedirects) throw outboundErrors.tooManyRedirects(request.url, maxRedirects);
        if (next.origin !== originalOrigin) headers = withoutCredentials(headers);
        // As browsers do: 303 (and 301/302 after a POST) continue as a GET without the body; 307/308 repeat the request.
        if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === 'POST')) {
          if (method !== 'HEAD') method = 'GET';
          body = undefined;
        }
        redirects.push(next.href);
        url = next;
        continue;
      }

      return {
        requestedUrl: request.url,
        url: url.href,
        redirects,
        status: hop.status,
        headers: hop.headers,
        contentType: mediaType(hop.headers['content-type']),
        body: hop.body,
        truncated: hop.truncated,
        elapsedMs: now() - started,
      };
    }
  };

  function checkLiteralAddress(url: URL) {
    const hostname = normalizeHostname(url.hostname);
    if (!parseIp(hostname)) return;
    const verdict = policy.check(hostname, hostname);
    if (!verdict.allowed) throw outboundErrors.blockedAddress(url.href, hostname, hostname, verdict.kind);
  }
}

function checkedUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw outboundErrors.invalidUrl(text);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw outboundErrors.unsupportedScheme(text, url.protocol.replace(/:$/, ''));
  if (url.username || url.password) throw outboundErrors.credentialsInUrl(text);
  if (!url.hostname) throw outboundErrors.invalidUrl(text);
  return url;
}

const withoutFragment = (url: URL) => url.href.replace(/#.*$/, '');

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name.toLowerCase())),
  );
}

export function mediaType(contentType: string | undefined): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
}
