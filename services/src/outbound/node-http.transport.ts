import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { findOutboundError, outboundErrors, type OutboundError } from './outbound-error.js';
import type { HopRequest, HopResponse, HttpTransport } from './outbound-fetch.js';

export interface NodeHttpTransport {
  transport: HttpTransport;
  /** Closes the kept-alive connections. */
  close(): void;
}

/**
 * How a transport presents itself when it should look like a browser (see browser-like.transport.ts): the
 * request headers every request starts from, the TLS settings of its connections, and a wrapper around its
 * agents (which orders and cases the headers as a browser does).
 */
export interface TransportDisguise {
  headers: Record<string, string>;
  tls: https.AgentOptions;
  wrapAgent(agent: http.Agent): http.Agent;
}

/**
 * The encodings the transport can decode, and so the only ones it asks for: a browser header set that
 * offers `zstd` to a site that then answers in it would leave the crawler with bytes it cannot read
 * (Node decodes zstd only from 22.15 on, where it is offered too).
 */
const ZSTD = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';
export const ACCEPT_ENCODING = ZSTD ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br';

function decoderFor(encoding: string): NodeJS.ReadWriteStream | null {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  if (encoding === 'zstd' && ZSTD)
    return (zlib as unknown as { createZstdDecompress(): NodeJS.ReadWriteStream }).createZstdDecompress();
  return null;
}

/**
 * Kesher's HTTP client: Node's own http/https with kept-alive sockets. Plain for calls to APIs (custom API
 * actions, test-connection); with a `disguise` for the crawler, whose pages sit behind bot filters that
 * answer browsers better. Built on Node's client rather than on a scraping library's because every request
 * through one paid for its option merging and validation — about a third of the crawler's CPU per page.
 *
 * Same contract as every transport: the guard's `lookup` is used for every connection (so names are
 * checked where they resolve), one hop only (redirects are the outbound fetch's), the body capped at
 * `maxBytes` after decompression, the whole hop within `timeoutMs`.
 */
export function createNodeHttpTransport(
  options: { maxSockets?: number; disguise?: TransportDisguise } = {},
): NodeHttpTransport {
  const disguise = options.disguise;
  const wrap = (agent: http.Agent) => (disguise ? disguise.wrapAgent(agent) : agent);
  const kept = { keepAlive: true, maxSockets: options.maxSockets ?? 16 };
  const httpAgent = new http.Agent(kept);
  const httpsAgent = new https.Agent({ ...disguise?.tls, ...kept });
  // A request sent again after its kept-alive connection was dropped goes on a connection of its own: the
  // other idle connections in the pool are as old, and as likely closed by the site, as the one that failed.
  const freshHttp = new http.Agent({ keepAlive: false });
  const freshHttps = new https.Agent({ ...disguise?.tls, keepAlive: false });
  const pooled = { http: wrap(httpAgent), https: wrap(httpsAgent) };
  const fresh = { http: wrap(freshHttp), https: wrap(freshHttps) };
  const baseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(disguise?.headers ?? {})) baseHeaders[name.toLowerCase()] = value;
  baseHeaders['accept-encoding'] = ACCEPT_ENCODING;

  /**
   * A kept-alive connection the server closed while it lay idle fails the next request sent on it before any
   * answer comes (ECONNRESET, EPIPE, "socket hang up"): the site never saw that request. A GET or HEAD is then
   * sent once more, on a new connection (not another idle one from the pool), as browsers do; anything else
   * is not repeated (an action's POST may have been received). Without this a crawl lost a page now and then,
   * reported "could not be reached", whenever its requests followed an earlier crawl's by about the server's
   * keep-alive time.
   */
  const transport: HttpTransport = async (request) => {
    try {
      return await hop(request, pooled);
    } catch (error) {
      const method = (request.method ?? 'GET').toUpperCase();
      if (!(error instanceof StaleConnection) || (method !== 'GET' && method !== 'HEAD') || request.signal?.aborted)
        throw error instanceof StaleConnection ? error.outbound : error;
      try {
        return await hop(request, fresh);
      } catch (again) {
        throw again instanceof StaleConnection ? again.outbound : again;
      }
    }
  };

  const hop = (request: HopRequest, agents: typeof pooled) =>
    new Promise<HopResponse>((resolve, reject) => {
      const url = request.url;
      const secure = url.protocol === 'https:';
      let settled = false;
      let answered = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(hopTimer);
        clearTimeout(connectTimer);
        outgoing.destroy();
        const outbound = toOutboundError(error, request);
        reject(
          !answered && outbound.reason === 'unreachable' && connectionDropped(error)
            ? new StaleConnection(outbound)
            : outbound,
        );
      };
      const hopTimer = setTimeout(
        () => fail(outboundErrors.timeout(url.href, Math.round(request.timeoutMs / 1000))),
        request.timeoutMs,
      );
      let connectTimer: NodeJS.Timeout | undefined;
      const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
      const outgoing = (secure ? https : http).request(
        url,
        {
          method: request.method ?? 'GET',
          agent: secure ? agents.https : agents.http,
          lookup: request.lookup,
          headers: {
            ...baseHeaders,
            ...request.headers,
            ...(body ? { 'content-length': String(body.length) } : {}),
          },
          ...(request.signal ? { signal: request.signal } : {}),
        },
        (response) => {
          answered = true;
          clearTimeout(connectTimer);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers))
            if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
          const remoteAddress = response.socket?.remoteAddress ?? null;
          const status = response.statusCode ?? 0;
          if ([301, 302, 303, 307, 308].includes(status) && headers.location !== undefined) {
            response.resume();
            settled = true;
            clearTimeout(hopTimer);
            return resolve({ status, headers, body: new Uint8Array(), truncated: false, remoteAddress });
          }
          const decoder = decoderFor((headers['content-encoding'] ?? '').trim().toLowerCase());
          const source = decoder ? pipeline(response, decoder, () => undefined) : response;
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          const finish = () => {
            if (settled) return;
            settled = true;
            clearTimeout(hopTimer);
            resolve({ status, headers, body: new Uint8Array(Buffer.concat(chunks, size)), truncated, remoteAddress });
          };
          source.on('data', (chunk: Buffer) => {
            if (truncated) return;
            if (size + chunk.length > request.maxBytes) {
              chunks.push(chunk.subarray(0, request.maxBytes - size));
              size = request.maxBytes;
              truncated = true;
              // Enough read: the rest is not downloaded (a bomb costs maxBytes).
              finish();
              response.destroy();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          source.on('end', finish);
          source.on('error', fail);
          response.on('error', fail);
        },
      );
      outgoing.on('socket', (socket) => {
        if (socket.connecting) {
          connectTimer = setTimeout(
            () => fail(outboundErrors.timeout(url.href, Math.round(request.connectTimeoutMs / 1000))),
            request.connectTimeoutMs,
          );
          socket.once('connect', () => clearTimeout(connectTimer));
          if (secure) socket.once('secureConnect', () => clearTimeout(connectTimer));
        }
      });
      outgoing.on('error', fail);
      outgoing.end(body);
    });

  return {
    transport,
    close() {
      for (const agent of [httpAgent, httpsAgent, freshHttp, freshHttps]) agent.destroy();
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

function toOutboundError(error: unknown, request: HopRequest): OutboundError {
  const known = findOutboundError(error);
  if (known) return known;
  const url = request.url.href;
  const code = (error as { code?: string }).code ?? '';
  const name = (error as { name?: string }).name ?? '';
  if (request.signal?.aborted || code === 'ABORT_ERR' || name === 'AbortError') return outboundErrors.aborted(url);
  if (code === 'ETIMEDOUT') return outboundErrors.timeout(url, Math.round(request.timeoutMs / 1000));
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA')
    return outboundErrors.unresolvable(url, error);
  return outboundErrors.unreachable(url, error);
}
