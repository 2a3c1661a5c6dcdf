import http from 'node:http';
import https from 'node:https';
import { gotScraping, TransformHeadersAgent, type Response } from 'got-scraping';
import { OutboundError, findOutboundError, outboundErrors } from './outbound-error.js';
import type { HopRequest, HopResponse, HttpTransport } from './outbound-fetch.js';

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

/**
 * got-scraping's browser-like headers, made once per transport. got-scraping normally makes them per
 * request, and for https it first opens a TLS connection of its own to learn the protocol — with the
 * system's resolver, outside our guarded lookup. That probe would reach any address a name points to, so
 * it is switched off (`useHeaderGenerator: false`, HTTP/1.1 only) and the headers are asked of the same
 * generator here instead.
 */
function browserHeaders(): Record<string, string> {
  try {
    const generator = (gotScraping.defaults.options.context as { headerGenerator?: HeaderGenerator }).headerGenerator;
    const generated = generator?.getHeaders({ httpVersion: '1', locales: ['he-IL', 'en-US'], devices: ['desktop'] });
    if (!generated) return FALLBACK_HEADERS;
    return Object.fromEntries(Object.entries(generated).map(([name, value]) => [name.toLowerCase(), value]));
  } catch {
    return FALLBACK_HEADERS;
  }
}

export interface GotScrapingTransport {
  transport: HttpTransport;
  /** Closes the kept-alive connections. */
  close(): void;
}

/**
 * The production HTTP client: got-scraping (browser-like headers and TLS fingerprint, which business
 * sites behind bot filters answer better) with redirects, retries and its own DNS switched off — the
 * outbound fetch does those. Its own agents, so kept-alive sockets are never shared with other code.
 */
export function createGotScrapingTransport(options: { maxSockets?: number } = {}): GotScrapingTransport {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 16 };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  const agent = { http: new TransformHeadersAgent(httpAgent), https: new TransformHeadersAgent(httpsAgent) };
  // A request sent again after its kept-alive connection was dropped goes on a connection of its own: the
  // other idle connections in the pool are as old, and as likely closed by the site, as the one that failed.
  const freshHttp = new http.Agent({ keepAlive: false });
  const freshHttps = new https.Agent({ keepAlive: false });
  const fresh = { http: new TransformHeadersAgent(freshHttp), https: new TransformHeadersAgent(freshHttps) };
  let headers: Record<string, string> | null = null;

  /**
   * A kept-alive connection the server closed while it lay idle fails the next request sent on it before any
   * answer comes (ECONNRESET, EPIPE, "socket hang up"): the site never saw that request. A GET or HEAD is then
   * sent once more, on a new connection (not another idle one from the pool), as browsers do; anything else is not repeated (an action's POST
   * may have been received). Without this a crawl lost a page now and then, reported "could not be reached",
   * whenever its requests followed an earlier crawl's by about the server's keep-alive time.
   */
  const transport: HttpTransport = async (request: HopRequest): Promise<HopResponse> => {
    try {
      return await attempt(request);
    } catch (error) {
      const method = (request.method ?? 'GET').toUpperCase();
      if (!(error instanceof StaleConnection) || (method !== 'GET' && method !== 'HEAD') || request.signal?.aborted)
        throw error instanceof StaleConnection ? error.outbound : error;
      try {
        return await attempt(request, fresh);
      } catch (again) {
        throw again instanceof StaleConnection ? again.outbound : again;
      }
    }
  };

  const attempt = async (request: HopRequest, agents = agent): Promise<HopResponse> => {
    headers ??= browserHeaders();
    let answered = false;
    const stream = gotScraping.stream({
      url: request.url.href,
      method: request.method ?? 'GET',
      headers: { ...headers, ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
      dnsLookup: request.lookup,
      followRedirect: false,
      throwHttpErrors: false,
      http2: false,
      useHeaderGenerator: false,
      decompress: true,
      retry: { limit: 0 },
      timeout: { connect: request.connectTimeoutMs, request: request.timeoutMs },
      agent: agents,
      https: { rejectUnauthorized: true },
      ...(request.signal ? { signal: request.signal } : {}),
    } as Parameters<typeof gotScraping.stream>[0]);

    try {
      const response = await new Promise<Response>((resolve, reject) => {
        stream.once('response', resolve);
        stream.once('error', reject);
      });
      answered = true;
      const flatHeaders = flatten(response.headers);
      const remoteAddress = response.ip ?? null;
      if ([301, 302, 303, 307, 308].includes(response.statusCode) && flatHeaders.location !== undefined) {
        stream.destroy();
        return {
          status: response.statusCode,
          headers: flatHeaders,
          body: new Uint8Array(),
          truncated: false,
          remoteAddress,
        };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (size + chunk.length > request.maxBytes) {
          chunks.push(chunk.subarray(0, request.maxBytes - size));
          size = request.maxBytes;
          truncated = true;
          break;
        }
        chunks.push(chunk);
        size += chunk.length;
      }
      stream.destroy();
      return {
        status: response.statusCode,
        headers: flatHeaders,
        body: new Uint8Array(Buffer.concat(chunks, size)),
        truncated,
        remoteAddress,
      };
    } catch (error) {
      stream.destroy();
      const outbound = toOutboundError(error, request);
      if (!answered && outbound.reason === 'unreachable' && connectionDropped(error))
        throw new StaleConnection(outbound);
      throw outbound;
    }
  };

  return {
    transport,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
      freshHttp.destroy();
      freshHttps.destroy();
    },
  };
}

/** A request that failed because its connection was closed under it before any answer (see the transport). */
class StaleConnection extends Error {
  constructor(readonly outbound: OutboundError) {
    super(outbound.message);
  }
}

const DROPPED = new Set(['ECONNRESET', 'EPIPE']);
function connectionDropped(error: unknown): boolean {
  for (
    let cause = error as { code?: string; message?: string; cause?: unknown } | undefined, depth = 0;
    cause && depth < 4;
    depth++
  ) {
    if ((cause.code && DROPPED.has(cause.code)) || cause.message === 'socket hang up') return true;
    cause = cause.cause as typeof cause;
  }
  return false;
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function toOutboundError(error: unknown, request: HopRequest): OutboundError {
  const known = findOutboundError(error);
  if (known) return known;
  const url = request.url.href;
  const code = (error as { code?: string }).code ?? '';
  const name = (error as { name?: string }).name ?? '';
  if (request.signal?.aborted || code === 'ERR_CANCELED' || name === 'AbortError') return outboundErrors.aborted(url);
  if (code === 'ETIMEDOUT' || name === 'TimeoutError')
    return outboundErrors.timeout(url, Math.round(request.timeoutMs / 1000));
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA')
    return outboundErrors.unresolvable(url, error);
  return outboundErrors.unreachable(url, error);
}
