import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/**
 * Calls through the load balancer with node:http, from a chosen loopback address (`from`): every simulated
 * client is its own 127.0.0.x, so the per-address limits see different clients (HAProxy forwards the
 * address in X-Forwarded-For) without anyone writing that header themselves.
 */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The replica that served it (HAProxy's X-Kesher-Replica). */
  replica: string | undefined;
  json<T = Record<string, unknown>>(): T;
}

export interface CallOptions {
  method?: string;
  token?: string;
  body?: unknown;
  /** A ready-made body with its content type (multipart). */
  raw?: { payload: Buffer; contentType: string };
  from?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export function createLbClient(base: string) {
  const origin = new URL(base);

  function call(path: string, options: CallOptions = {}): Promise<Answer> {
    const payload =
      options.raw?.payload ?? (options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body)));
    const headers: Record<string, string> = { ...options.headers };
    if (options.raw) headers['content-type'] = options.raw.contentType;
    else if (payload) headers['content-type'] = 'application/json';
    if (payload) headers['content-length'] = String(payload.length);
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: origin.hostname,
          port: origin.port,
          path,
          method: options.method ?? (payload ? 'POST' : 'GET'),
          headers,
          localAddress: options.from,
          agent: false,
          timeout: options.timeoutMs ?? 30_000,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body,
              replica: res.headers['x-kesher-replica'] as string | undefined,
              json: <T>() => JSON.parse(body) as T,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${path}: no answer within ${options.timeoutMs ?? 30_000} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Like `call`, but a status outside 2xx throws with the body. */
  async function ok<T = Record<string, unknown>>(path: string, options: CallOptions = {}): Promise<T> {
    const answer = await call(path, options);
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(
        `${options.method ?? (options.body || options.raw ? 'POST' : 'GET')} ${path}: ${answer.status} ${answer.body.slice(0, 500)}`,
      );
    return answer.json<T>();
  }

  return { base, call, ok, origin };
}
export type LbClient = ReturnType<typeof createLbClient>;

export function multipartFile(filename: string, text: string) {
  const boundary = `----kesherscale${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}
