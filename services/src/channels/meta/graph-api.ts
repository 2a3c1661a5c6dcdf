import { z } from 'zod';
import { callJson, ChannelApiError, type Fetch } from '../channel-api-error.js';

/** Meta's Graph API error body: `{ error: { message, type, code, error_subcode?, fbtrace_id } }`. */
const GraphErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string().optional(), code: z.number().optional() }),
});

/** One Graph API call with a bearer token; a refusal becomes a ChannelApiError with Meta's own message. */
export async function graphCall<T>(
  channel: 'WhatsApp' | 'Instagram',
  fetcher: Fetch,
  url: string,
  token: string,
  init: { method: 'GET' | 'POST'; body?: unknown },
  result: z.ZodType<T>,
): Promise<T> {
  const { status, body } = await callJson(channel, fetcher, url, {
    method: init.method,
    headers: { authorization: `Bearer ${token}` },
    body: init.body,
  });
  if (status >= 400) {
    const error = GraphErrorSchema.safeParse(body);
    throw new ChannelApiError(channel, status, error.success ? error.data.error.message : `answered ${status}`);
  }
  const parsed = result.safeParse(body);
  if (!parsed.success) throw new ChannelApiError(channel, status, 'unexpected answer');
  return parsed.data;
}
