import type { ChannelAccount, ChannelKind } from '@kesher/contracts';

/** A customer's text message as every channel's webhook yields it. */
export interface InboundMessage {
  /** The channel's own id for this delivery: a redelivery repeats it (Telegram's update id, Meta's message id). */
  deliveryKey: string;
  /** Where the answer goes. */
  chatId: string;
  senderName: string | null;
  externalMessageId: string;
  text: string;
}

/** A delivery status a channel reported for a message Kesher sent (WhatsApp's `statuses`). */
export interface InboundStatus {
  externalMessageId: string;
  recipientId: string | null;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  error: string | null;
  at: Date;
}

/** The secrets of one connection, sealed together at rest (see channel-secrets.ts). */
export interface ChannelSecrets {
  /** Telegram's bot token, WhatsApp's access token, Instagram's page access token. */
  token: string;
  /** Telegram: the secret_token every update carries. Meta: the verify token of the handshake. */
  webhookSecret: string;
  /** Meta: the owner's app secret, when they gave one (else the deployment's META_APP_SECRET). */
  appSecret: string | null;
}

/** What an owner's setup form gave, as each channel needs it. */
export type ChannelSetup =
  | { kind: 'telegram'; botToken: string }
  | {
      kind: 'whatsapp';
      accessToken: string;
      phoneNumberId: string;
      businessAccountId: string | null;
      testNumber: string | null;
      appSecret: string | null;
    }
  | {
      kind: 'instagram';
      pageAccessToken: string;
      instagramAccountId: string;
      pageId: string | null;
      testUserId: string | null;
      appSecret: string | null;
    };

/**
 * The one channel port: connect an account (checking its token with the channel and pointing the
 * channel's webhook at Kesher where the API allows it), disconnect it, and send a text to a chat.
 * One adapter per channel speaks that channel's documented HTTP API; tests run them against stand-ins.
 */
export interface ChannelAdapter {
  kind: ChannelKind;
  /** Longest text one message may carry; longer answers are split. */
  maxTextLength: number;
  connect(
    setup: ChannelSetup,
    webhook: { url: string; secret: string },
  ): Promise<{ account: ChannelAccount; token: string }>;
  /** Best effort: the connection is ended in Kesher whatever the channel answers. */
  disconnect(account: ChannelAccount, secrets: ChannelSecrets): Promise<void>;
  /** Sends one part (already within maxTextLength); returns the channel's id for the sent message. */
  send(account: ChannelAccount, secrets: ChannelSecrets, chatId: string, text: string): Promise<string>;
  /** The customer's name where the delivery does not carry one (Instagram's webhook has only the sender's id). */
  profileName?(account: ChannelAccount, secrets: ChannelSecrets, chatId: string): Promise<string | null>;
}
