import type { Channel } from './api/integrations';

/** A form field of a channel's setup modal (spec part 2 §3 setup payloads, §5 required fields). */
export interface SetupField {
  name: string;
  label: string;
  required?: boolean;
  /** Tokens and secrets: typed into a password field, never shown again whole. */
  secret?: boolean;
  hint?: string;
  inputMode?: 'numeric';
}

export interface ChannelEntry {
  id: Channel | 'messenger' | 'discord';
  /** Messenger and Discord are announced, not built (spec §2: a coming-soon notice). */
  comingSoon?: boolean;
  fields: SetupField[];
  /** The spec's text when a required field is empty (§5). */
  requiredMessage?: string;
}

export const CHANNELS: readonly ChannelEntry[] = [
  {
    id: 'telegram',
    fields: [{ name: 'bot_token', label: 'botToken', required: true, secret: true, hint: 'botTokenHint' }],
    requiredMessage: 'botTokenRequired',
  },
  {
    id: 'whatsapp',
    fields: [
      { name: 'access_token', label: 'accessToken', required: true, secret: true },
      { name: 'phone_number_id', label: 'phoneNumberId', required: true, inputMode: 'numeric' },
      { name: 'business_account_id', label: 'businessAccountId' },
      { name: 'test_number', label: 'testNumber' },
      { name: 'app_secret', label: 'appSecret', secret: true, hint: 'appSecretHint' },
    ],
    requiredMessage: 'whatsappRequired',
  },
  {
    id: 'instagram',
    fields: [
      { name: 'page_access_token', label: 'pageAccessToken', required: true, secret: true },
      { name: 'instagram_account_id', label: 'instagramAccountId', required: true, inputMode: 'numeric' },
      { name: 'page_id', label: 'pageId' },
      { name: 'test_user_id', label: 'testUserId' },
      { name: 'app_secret', label: 'appSecret', secret: true, hint: 'appSecretHint' },
    ],
    requiredMessage: 'instagramRequired',
  },
  { id: 'messenger', comingSoon: true, fields: [] },
  { id: 'discord', comingSoon: true, fields: [] },
];

/** The missing-field text of a filled form, or null when every required field has a value. */
export function setupProblem(entry: ChannelEntry, values: Record<string, string>): string | null {
  const missing = entry.fields.some((field) => field.required && !values[field.name]?.trim());
  return missing ? (entry.requiredMessage ?? null) : null;
}

/** The filled fields only, trimmed: optional fields left empty are not sent. */
export function setupBody(entry: ChannelEntry, values: Record<string, string>): Record<string, string> {
  const body: Record<string, string> = {};
  for (const field of entry.fields) {
    const value = values[field.name]?.trim();
    if (value) body[field.name] = value;
  }
  return body;
}

/** Where Configure finds the bot's name again (spec §2: "the username from local storage"). */
export const telegramUsernameKey = (assistantId: number) => `telegram_bot_username_${assistantId}`;

/**
 * The setup failure as the modal shows it: the spec's "Failed to setup … integration" once, then the
 * server's reason. The server's refusal already begins with that text (in English, or in Hebrew once
 * localized), and prefixing it again read "Failed to setup Telegram integration: Failed to setup Telegram
 * integration: …" (issue 22 item 16).
 */
export function setupFailureText(failureText: string, said: string, serverFailureText: string): string {
  let reason = said.trim();
  for (const prefix of [serverFailureText, failureText]) {
    if (reason.startsWith(prefix)) reason = reason.slice(prefix.length).replace(/^\s*[:.]\s*/, '');
  }
  return reason ? `${failureText}: ${reason}` : failureText;
}
