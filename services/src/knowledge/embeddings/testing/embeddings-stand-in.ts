import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startTestServer, type TestServer } from '../../../outbound/testing/test-server.js';

/**
 * A local stand-in for an OpenAI-compatible embeddings server: `POST /v1/embeddings` in the documented
 * wire format (bearer key; `input` a string or a list of strings; `encoding_format` float or base64;
 * `{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }`; errors as
 * `{ error: { message, type, code } }`). Its vectors are deterministic and mean something: a hashed bag
 * of the text's words and of their letter trigrams, so texts sharing words — or most letters of a
 * misspelt word — are near. Failures can be queued (429 with Retry-After, 500, a dropped connection).
 */
export interface EmbeddingsStandIn extends TestServer {
  baseURL: string;
  apiKey: string;
  /** Every request answered 200: the number of texts in it. */
  batches: number[];
  /** Requests answered with an error (or dropped). */
  failed: number;
  /** The next requests fail, one per entry, in order. */
  failNext(...failures: Array<{ status: 429 | 500 | 503; retryAfterSeconds?: number } | 'drop'>): void;
  /** Every request fails this way until `recover()` (an outage longer than any retry). */
  outage(status: 429 | 500 | 503): void;
  recover(): void;
}

export const STAND_IN_DIMENSIONS = 256;

const tokens = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKC')
    .match(/[\p{L}\p{N}]+/gu) ?? [];

function bucketOf(feature: string): { bucket: number; sign: number } {
  const digest = createHash('sha256').update(feature).digest();
  return { bucket: digest.readUInt32BE(0) % STAND_IN_DIMENSIONS, sign: digest[4]! & 1 ? 1 : -1 };
}

/** The stand-in's vector of a text (not normalised: clients normalise). */
export function standInVector(text: string): number[] {
  const vector = new Array<number>(STAND_IN_DIMENSIONS).fill(0);
  for (const word of tokens(text)) {
    const add = (feature: string, weight: number) => {
      const { bucket, sign } = bucketOf(feature);
      vector[bucket]! += sign * weight;
    };
    add(`w:${word}`, 1);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.5);
  }
  return vector;
}

const base64Of = (vector: number[]) => Buffer.from(new Float32Array(vector).buffer).toString('base64');

export async function startEmbeddingsStandIn(
  options: { apiKey?: string; model?: string } = {},
): Promise<EmbeddingsStandIn> {
  const apiKey = options.apiKey ?? 'sk-stand-in';
  const queued: Array<{ status: number; retryAfterSeconds?: number } | 'drop'> = [];
  let down: number | undefined;
  const stats = { batches: [] as number[], failed: 0 };

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const error = (
    response: ServerResponse,
    status: number,
    message: string,
    type: string,
    code: string | null,
    headers: Record<string, string> = {},
  ) => send(response, status, { error: { message, type, param: null, code } }, headers);

  async function handler(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST' || request.url?.split('?')[0] !== '/v1/embeddings')
      return error(
        response,
        404,
        `Unknown request URL: ${request.method} ${request.url}`,
        'invalid_request_error',
        'unknown_url',
      );
    if (request.headers.authorization !== `Bearer ${apiKey}`)
      return error(response, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    const failure = queued.shift() ?? (down !== undefined ? { status: down } : undefined);
    if (failure) {
      stats.failed++;
      if (failure === 'drop') return request.socket.destroy();
      if (failure.status === 429)
        return error(response, 429, 'Rate limit reached for requests', 'requests', 'rate_limit_exceeded', {
          'retry-after': String(failure.retryAfterSeconds ?? 0),
        });
      return error(
        response,
        failure.status,
        'The server had an error while processing your request.',
        'server_error',
        null,
      );
    }
    let body: { model?: unknown; input?: unknown; encoding_format?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return error(response, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
    }
    if (typeof body.model !== 'string' || (options.model && body.model !== options.model))
      return error(
        response,
        404,
        `The model \`${String(body.model)}\` does not exist`,
        'invalid_request_error',
        'model_not_found',
      );
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (
      !Array.isArray(input) ||
      input.length === 0 ||
      input.length > 2048 ||
      !input.every((item) => typeof item === 'string' && item.length > 0)
    ) {
      return error(
        response,
        400,
        "'input' must be a non-empty string or a list of up to 2048 non-empty strings.",
        'invalid_request_error',
        null,
      );
    }
    const format = body.encoding_format ?? 'float';
    if (format !== 'float' && format !== 'base64')
      return error(response, 400, "'encoding_format' must be 'float' or 'base64'.", 'invalid_request_error', null);
    stats.batches.push(input.length);
    const words = input.reduce((sum: number, text: string) => sum + tokens(text).length, 0);
    send(response, 200, {
      object: 'list',
      data: input.map((text: string, index: number) => {
        const vector = standInVector(text);
        return { object: 'embedding', index, embedding: format === 'base64' ? base64Of(vector) : vector };
      }),
      model: body.model,
      usage: { prompt_tokens: words, total_tokens: words },
    });
  }

  const server = await startTestServer(
    (request, response) => void handler(request, response).catch(() => response.destroy()),
  );
  return {
    ...server,
    baseURL: server.url('/v1'),
    apiKey,
    get batches() {
      return stats.batches;
    },
    get failed() {
      return stats.failed;
    },
    failNext(...failures) {
      queued.push(...failures);
    },
    outage(status) {
      down = status;
    },
    recover() {
      down = undefined;
    },
  };
}
