import { z } from 'zod';
import { callJson, ChannelApiError, type Fetch } from '../channel-api-error.js';

/** Telegram's message limit (characters of text after entities parsing). */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** Every Bot API answer: `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`. */
const EnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error_code: z.number().int().optional(),
    description: z.string().optional(),
    parameters: z.object({ retry_after: z.number().optional() }).partial().optional(),
  }),
]);
const UserSchema = z.object({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string(),
  username: z.string().optional(),
});
const SentMessageSchema = z.object({ message_id: z.number().int() });

/**
 * The Telegram Bot API (https://core.telegram.org/bots/api) over HTTPS: `<base>/bot<token>/<method>`
 * with a JSON body. The base is TELEGRAM_API_URL (https://api.telegram.org by default; tests point it
 * at a local stand-in). The token is part of the path, so it is never logged from here.
 */
export function createTelegramApi(options: { baseUrl: string; fetch?: Fetch }) {
  const fetcher = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/$/, '');

  async function call<T>(
    token: string,
    method: string,
    body: Record<string, unknown> | undefined,
    result: z.ZodType<T>,
  ): Promise<T> {
    const { status, body: answer } = await callJson('Telegram', fetcher, `${base}/bot${token}/${method}`, {
      method: 'POST',
      body: body ?? {},
    });
    const envelope = EnvelopeSchema.safeParse(answer);
    if (!envelope.success) throw new ChannelApiError('Telegram', status, `unexpected answer to ${method}`);
    if (!envelope.data.ok) {
      const { error_code, description, parameters } = envelope.data;
      throw new ChannelApiError(
        'Telegram',
        error_code ?? status,
        description ?? `${method} failed`,
        parameters?.retry_after,
      );
    }
    const parsed = result.safeParse(envelope.data.result);
    if (!parsed.success) throw new ChannelApiError('Telegram', status, `unexpected result of ${method}`);
    return parsed.data;
  }

  return {
    /** The bot the token belongs to; a wrong token answers 401 Unauthorized (404 when malformed). */
    getMe: (token: string) => call(token, 'getMe', undefined, UserSchema),
    /**
     * Telegram then POSTs every update to `url` with `X-Telegram-Bot-Api-Secret-Token: secretToken`.
     * Only text messages are asked for; pending updates from before the connection are dropped.
     */
    setWebhook: (token: string, input: { url: string; secretToken: string }) =>
      call(
        token,
        'setWebhook',
        { url: input.url, secret_token: input.secretToken, allowed_updates: ['message'], drop_pending_updates: true },
        z.literal(true),
      ),
    deleteWebhook: (token: string) => call(token, 'deleteWebhook', { drop_pending_updates: true }, z.literal(true)),
    /**
     * Plain text, no parse_mode: nothing in an answer is read as Markdown or HTML, so nothing needs
     * escaping and nothing a customer or a page wrote can format (or break) the message.
     */
    sendMessage: (token: string, input: { chatId: string; text: string }) =>
      call(
        token,
        'sendMessage',
        { chat_id: input.chatId, text: input.text, link_preview_options: { is_disabled: true } },
        SentMessageSchema,
      ),
  };
}
export type TelegramApi = ReturnType<typeof createTelegramApi>;
