import { defineBatchProjection } from '../shared/typed-projection.js';

const EVENT_TYPES = [
  'ChannelConnected',
  'ChannelDisconnected',
  'ChannelMessageReceived',
  'ChannelReplyDispatched',
  'ChannelReplyDelivered',
  'ChannelReplyFailed',
  'ChannelDeliveryStatusReported',
  'ThreadStarted',
  'SubjectErased',
] as const;

/**
 * What an erased subject's fields read as (docs/privacy.md). Rows are keyed by the customer's chat id, so
 * an erased customer's rows are dropped rather than blanked: a replay skips events whose chat id reads so,
 * and the erasure drops the live rows (privacy/erasure/subject-erasure.ts; an account's here).
 */
const ERASED = '[erased]';
/** The fields of a connected account that are a person's (personal-data.ts, ChannelConnected). */
const PERSONAL_ACCOUNT_FIELDS = `'phoneNumber', 'testNumber', 'testUserId'`;

/** How far a sent message got; a status only ever moves forward (a late `sent` after `read` changes nothing). */
const rank = (column: string) =>
  `CASE ${column} WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 WHEN 'failed' THEN 4 ELSE 0 END`;

/**
 * Channel connections (Telegram, WhatsApp, Instagram), the customers' chats each one carried (the stats),
 * the replies sent and the delivery statuses the channels reported. Tokens stay sealed here as in the log.
 */
export const channelsProjection = defineBatchProjection({
  name: 'channels',
  version: 1,
  eventTypes: EVENT_TYPES,
  tables: ['channel_integrations', 'channel_chats', 'channel_replies', 'channel_statuses'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS channel_integrations (
  integration_id text PRIMARY KEY,
  assistant_id text NOT NULL,
  owner_id text NOT NULL,
  kind text NOT NULL,
  active boolean NOT NULL,
  account jsonb NOT NULL,
  sealed_secrets text NOT NULL,
  token_last4 text NOT NULL,
  connected_at timestamptz NOT NULL,
  disconnected_at timestamptz
);
CREATE INDEX IF NOT EXISTS channel_integrations_assistant ON channel_integrations (assistant_id, kind) WHERE active;
CREATE TABLE IF NOT EXISTS channel_chats (
  integration_id text NOT NULL,
  chat_id text NOT NULL,
  assistant_id text NOT NULL,
  owner_id text NOT NULL,
  kind text NOT NULL,
  name text,
  messages int NOT NULL,
  first_message_at timestamptz NOT NULL,
  last_message_at timestamptz NOT NULL,
  PRIMARY KEY (integration_id, chat_id)
);
CREATE INDEX IF NOT EXISTS channel_chats_assistant ON channel_chats (owner_id, assistant_id, kind, last_message_at DESC);
CREATE TABLE IF NOT EXISTS channel_replies (
  message_id text PRIMARY KEY,
  thread_id text NOT NULL,
  integration_id text NOT NULL,
  chat_id text NOT NULL,
  author text NOT NULL,
  status text NOT NULL,
  error text,
  external_ids text[] NOT NULL DEFAULT '{}',
  send_ms double precision,
  dispatched_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS channel_replies_thread ON channel_replies (thread_id);
CREATE TABLE IF NOT EXISTS channel_statuses (
  integration_id text NOT NULL,
  external_message_id text NOT NULL,
  recipient_id text,
  status text NOT NULL,
  error text,
  at timestamptz NOT NULL,
  PRIMARY KEY (integration_id, external_message_id)
);
`,
    },
    {
      // A notice sent outside any conversation (the plan's monthly limit reached) has no thread.
      id: '002-reply-without-thread',
      sql: `ALTER TABLE channel_replies ALTER COLUMN thread_id DROP NOT NULL;`,
    },
  ],
  async applyBatch(db, events) {
    for (const event of events) {
      const at = event.metadata.timestamp;
      switch (event.type) {
        case 'ChannelConnected': {
          const d = event.data;
          await db.query(
            `INSERT INTO channel_integrations (integration_id, assistant_id, owner_id, kind, active, account, sealed_secrets, token_last4, connected_at)
             VALUES ($1, $2, $3, $4, true, $5, $6, $7, $8) ON CONFLICT (integration_id) DO NOTHING`,
            [
              d.integrationId,
              d.assistantId,
              d.ownerId,
              d.account.kind,
              JSON.stringify(d.account),
              d.sealedSecrets,
              d.tokenLast4,
              at,
            ],
          );
          break;
        }
        case 'ChannelDisconnected': {
          const d = event.data;
          await db.query(
            `UPDATE channel_integrations SET active = false, disconnected_at = $2 WHERE integration_id = $1 AND active`,
            [d.integrationId, at],
          );
          break;
        }
        case 'ChannelMessageReceived': {
          const d = event.data;
          if (d.chatId === ERASED) break;
          await db.query(
            `INSERT INTO channel_chats (integration_id, chat_id, assistant_id, owner_id, kind, name, messages, first_message_at, last_message_at)
             VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $7)
             ON CONFLICT (integration_id, chat_id) DO UPDATE SET messages = channel_chats.messages + 1,
               name = COALESCE(excluded.name, channel_chats.name), last_message_at = GREATEST(channel_chats.last_message_at, excluded.last_message_at)`,
            [d.integrationId, d.chatId, d.assistantId, d.ownerId, d.kind, d.senderName, at],
          );
          break;
        }
        case 'ChannelReplyDispatched': {
          const d = event.data;
          if (d.chatId === ERASED) break;
          await db.query(
            `INSERT INTO channel_replies (message_id, thread_id, integration_id, chat_id, author, status, dispatched_at)
             VALUES ($1, $2, $3, $4, $5, 'dispatched', $6) ON CONFLICT (message_id) DO NOTHING`,
            [d.messageId, d.threadId, d.integrationId, d.chatId, d.author, at],
          );
          break;
        }
        case 'ChannelReplyDelivered': {
          const d = event.data;
          await db.query(
            `UPDATE channel_replies SET status = 'sent', external_ids = $2, send_ms = $3 WHERE message_id = $1`,
            [d.messageId, d.externalMessageIds, d.sendMs],
          );
          break;
        }
        case 'ChannelReplyFailed': {
          const d = event.data;
          await db.query(`UPDATE channel_replies SET status = 'failed', error = $2 WHERE message_id = $1`, [
            d.messageId,
            d.error,
          ]);
          break;
        }
        case 'ChannelDeliveryStatusReported': {
          const d = event.data;
          if (d.recipientId === ERASED) break;
          await db.query(
            `INSERT INTO channel_statuses (integration_id, external_message_id, recipient_id, status, error, at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (integration_id, external_message_id) DO UPDATE SET status = excluded.status, error = excluded.error, at = excluded.at
             WHERE ${rank('excluded.status')} > ${rank('channel_statuses.status')}`,
            [d.integrationId, d.externalMessageId, d.recipientId, d.status, d.error, d.at],
          );
          break;
        }
        case 'ThreadStarted': {
          // A channel's conversation names its customer where the delivery did not (Instagram's profile).
          const contact = event.data.contact;
          if (contact?.name && contact.chatId !== ERASED) {
            await db.query(
              `UPDATE channel_chats SET name = $3 WHERE integration_id = $1 AND chat_id = $2 AND name IS NULL`,
              [contact.integrationId, contact.chatId, contact.name],
            );
          }
          break;
        }
        case 'SubjectErased': {
          const d = event.data;
          if (d.subject !== 'account' || !d.ownerId) break;
          const owned = `integration_id IN (SELECT integration_id FROM channel_integrations WHERE owner_id = $1)`;
          await db.query(`DELETE FROM channel_chats WHERE owner_id = $1`, [d.ownerId]);
          await db.query(`DELETE FROM channel_replies WHERE ${owned}`, [d.ownerId]);
          await db.query(`DELETE FROM channel_statuses WHERE recipient_id IS NOT NULL AND ${owned}`, [d.ownerId]);
          await db.query(
            `UPDATE channel_integrations SET account = (
               SELECT jsonb_object_agg(k, CASE WHEN k IN (${PERSONAL_ACCOUNT_FIELDS}) AND v <> 'null'::jsonb THEN to_jsonb('${ERASED}'::text) ELSE v END)
               FROM jsonb_each(account) AS e(k, v))
             WHERE owner_id = $1`,
            [d.ownerId],
          );
          break;
        }
        default:
          break;
      }
    }
  },
});
