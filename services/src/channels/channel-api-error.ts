/**
 * A channel's API refused or failed a call. `reason` is the service's own words (Telegram's description,
 * Meta's error message), shown to the owner after the spec's failure text.
 */
export class ChannelApiError extends Error {
  constructor(
    readonly channel: 'Telegram' | 'WhatsApp' | 'Instagram',
    /** The HTTP status, or 0 when the service could not be reached at all. */
    readonly status: number,
    readonly reason: string,
    /** Telegram's 429 says when to try again (parameters.retry_after, seconds). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${channel}: ${reason}`);
    this.name = 'ChannelApiError';
  }

  /** A token the service refuses (401/403, or Telegram's 404 for a malformed token). */
  get rejectsCredentials() {
    return this.status === 401 || this.status === 403 || (this.channel === 'Telegram' && this.status === 404);
  }
}

export type Fetch = typeof fetch;

const TIMEOUT_MS = 15_000;

/** One JSON call; a network failure or a non-JSON answer becomes a ChannelApiError too. */
export async function callJson(
  channel: ChannelApiError['channel'],
  fetcher: Fetch,
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown },
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetcher(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause =
      error instanceof Error ? (error.name === 'TimeoutError' ? 'no answer in time' : error.message) : String(error);
    throw new ChannelApiError(channel, 0, `could not be reached (${cause})`);
  }
  const text = await response.text();
  try {
    return { status: response.status, body: text === '' ? {} : JSON.parse(text) };
  } catch {
    throw new ChannelApiError(channel, response.status, `answered ${response.status} without JSON`);
  }
}
