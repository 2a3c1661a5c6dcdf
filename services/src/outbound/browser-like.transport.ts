import type http from 'node:http';
import type https from 'node:https';
import { gotScraping, hooks, TransformHeadersAgent } from 'got-scraping';
import { createNodeHttpTransport, type NodeHttpTransport, type TransportDisguise } from './node-http.transport.js';

/** Used when the header generator cannot produce a set (it never should): a plain, current browser's. */
const FALLBACK_HEADERS: Record<string, string> = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'he-IL,he;q=0.9,en-US;q=0.8,en;q=0.7',
};

interface HeaderGenerator {
  getHeaders(options: Record<string, unknown>): Record<string, string>;
}

/** A browser's header set from got-scraping's generator (Hebrew first, a desktop browser, HTTP/1.1). */
function browserHeaders(): Record<string, string> {
  try {
    const generator = (gotScraping.defaults.options.context as { headerGenerator?: HeaderGenerator }).headerGenerator;
    const generated = generator?.getHeaders({ httpVersion: '1', locales: ['he-IL', 'en-US'], devices: ['desktop'] });
    return generated ?? FALLBACK_HEADERS;
  } catch {
    return FALLBACK_HEADERS;
  }
}

/**
 * The TLS settings of the browser those headers name (cipher list and order, signature algorithms, curves,
 * versions), as got-scraping's own TLS hook sets them: a site that checks the handshake against the
 * user-agent sees the two agree.
 */
function browserTls(headers: Record<string, string>): https.AgentOptions {
  const options = { https: {} as Record<string, unknown>, headers, _unixOptions: {} as Record<string, unknown> };
  try {
    (hooks.tlsHook as (options: unknown) => void)(options);
  } catch {
    return {};
  }
  const { ciphers, signatureAlgorithms, ecdhCurve, minVersion, maxVersion } = options.https as {
    ciphers?: string;
    signatureAlgorithms?: string;
    ecdhCurve?: string;
    minVersion?: https.AgentOptions['minVersion'];
    maxVersion?: https.AgentOptions['maxVersion'];
  };
  const { secureOptions, requestOCSP } = options._unixOptions as { secureOptions?: number; requestOCSP?: boolean };
  return {
    ...(ciphers ? { ciphers } : {}),
    ...(signatureAlgorithms ? { sigalgs: signatureAlgorithms } : {}),
    ...(ecdhCurve ? { ecdhCurve } : {}),
    ...(minVersion ? { minVersion } : {}),
    ...(maxVersion ? { maxVersion } : {}),
    ...(secureOptions !== undefined ? { secureOptions } : {}),
    ...(requestOCSP !== undefined ? { requestOCSP } : {}),
    // Certificates are verified, whatever a scraping library's default.
    rejectUnauthorized: true,
  };
}

/** One browser, chosen once per transport: its headers, its TLS handshake, its header order and case. */
export function browserDisguise(): TransportDisguise {
  const headers = browserHeaders();
  return {
    headers,
    tls: browserTls(headers),
    wrapAgent: (agent: http.Agent) => new TransformHeadersAgent(agent),
  };
}

/**
 * The crawler's HTTP client: Node's client (see node-http.transport.ts) dressed as one browser — a header
 * set from got-scraping's generator, sent in that browser's order and case, over a TLS handshake with its
 * ciphers — because business sites behind bot filters answer browsers better. Chosen once per transport,
 * as a person's browser stays the same for a whole visit. HTTP/1.1 only: learning whether a site speaks
 * HTTP/2 would take a TLS probe of its own, resolved outside the guarded lookup.
 */
export function createBrowserLikeTransport(options: { maxSockets?: number } = {}): NodeHttpTransport {
  return createNodeHttpTransport({ ...options, disguise: browserDisguise() });
}
