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
 * A plain HTTP client for calls to APIs (custom API actions, test-connection): Node's own http/https with
 * kept-alive sockets, no browser disguise. The crawler keeps got-scraping, whose browser-like headers and
 * TLS fingerprint sites behind bot filters answer better; an API needs none of that, and the plain client
 * adds a millisecond where got-scraping adds several to every action call of a run.
 *
 * Same contract as every transport: the guard's `lookup` is used for every connection (so names are
 * checked where they resolve), one hop only (redirects are the outbound fetch's), the body capped at
 * `maxBytes` after decompression, the whole hop within `timeoutMs`.
 */
export function createNodeHttpTransport(options: { maxSockets?: number } = {}): NodeHttpTransport {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 16 };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);

  const transport: HttpTransport = (request: HopRequest) =>
    new Promise<HopResponse>((resolve, reject) => {
      const url = request.url;
      const secure = url.protocol === 'https:';
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(hopTimer);
        clearTimeout(connectTimer);
        outgoing.destroy();
        reject(toOutboundError(error, request));
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
          agent: secure ? httpsAgent : httpAgent,
          lookup: request.lookup,
          headers: {
            'accept-encoding': 'gzip, deflate, br',
            ...request.headers,
            ...(body ? { 'content-length': String(body.length) } : {}),
          },
          ...(request.signal ? { signal: request.signal } : {}),
        },
        (response) => {
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
          const encoding = (headers['content-encoding'] ?? '').trim().toLowerCase();
          const decoder =
            encoding === 'gzip' || encoding === 'x-gzip'
              ? zlib.createGunzip()
              : encoding === 'deflate'
                ? zlib.createInflate()
                : encoding === 'br'
                  ? zlib.createBrotliDecompress()
                  : null;
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
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
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
