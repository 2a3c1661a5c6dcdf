import {
  type ChannelAccount,
  type ChannelKind,
  type Channel,
  conversationTitleFrom,
  displayText,
} from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';

export interface IntegrationRow {
  integration_id: string;
  assistant_id: string;
  owner_id: string;
  kind: ChannelKind;
  active: boolean;
  account: ChannelAccount;
  sealed_secrets: string;
  token_last4: string;
  /** Seconds since epoch. */
  connected_at: number;
}

export interface ChatRow {
  chat_id: string;
  name: string | null;
  messages: number;
  last_message_at: number;
}

export interface InboxRow {
  thread_id: string;
  assistant_numeric_id: number;
  assistant_name: string;
  channel: Channel;
  title: string;
  contact_name: string | null;
  taken_over: boolean;
  last_message: string | null;
  last_message_at: number;
  created_at: number;
}

const INTEGRATION_COLUMNS = `integration_id, assistant_id, owner_id, kind, active, account, sealed_secrets, token_last4, floor(extract(epoch FROM connected_at))::int AS connected_at`;

/** Every owner-facing query is scoped by the owner's account id; the webhook's lookup is by the unguessable integration id. */
export function channelQueries(db: Queryable) {
  return {
    /** The assistant's live connection to a channel, if any. */
    async activeIntegration(
      ownerId: string,
      assistantId: string,
      kind: ChannelKind,
    ): Promise<IntegrationRow | undefined> {
      const { rows } = await db.query<IntegrationRow>(
        `SELECT ${INTEGRATION_COLUMNS} FROM channel_integrations WHERE owner_id = $1 AND assistant_id = $2 AND kind = $3 AND active ORDER BY connected_at DESC LIMIT 1`,
        [ownerId, assistantId, kind],
      );
      return rows[0];
    },

    /** A webhook's integration, live or not (a disconnected one is answered 200 and ignored). */
    async integration(integrationId: string): Promise<IntegrationRow | undefined> {
      const { rows } = await db.query<IntegrationRow>(
        `SELECT ${INTEGRATION_COLUMNS} FROM channel_integrations WHERE integration_id = $1`,
        [integrationId],
      );
      return rows[0];
    },

    /** The customers who wrote to an assistant through a channel, the most recent first. */
    async chats(
      ownerId: string,
      assistantId: string,
      kind: ChannelKind,
      options: { activeSince: Date; limit: number },
    ) {
      const { rows: totals } = await db.query<{ total: number; active: number }>(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE last_message_at >= $4)::int AS active
         FROM channel_chats WHERE owner_id = $1 AND assistant_id = $2 AND kind = $3`,
        [ownerId, assistantId, kind, options.activeSince.toISOString()],
      );
      const { rows } = await db.query<ChatRow>(
        `SELECT chat_id, name, messages, floor(extract(epoch FROM last_message_at))::int AS last_message_at
         FROM channel_chats WHERE owner_id = $1 AND assistant_id = $2 AND kind = $3 ORDER BY last_message_at DESC, chat_id LIMIT $4`,
        [ownerId, assistantId, kind, options.limit],
      );
      return { total: totals[0]?.total ?? 0, active: totals[0]?.active ?? 0, chats: rows };
    },

    /** How a reply to a channel went (dispatched, sent, failed), for tests and the inbox. */
    async reply(
      messageId: string,
    ): Promise<{ status: string; error: string | null; external_ids: string[]; send_ms: number | null } | undefined> {
      const { rows } = await db.query<{
        status: string;
        error: string | null;
        external_ids: string[];
        send_ms: number | null;
      }>(`SELECT status, error, external_ids, send_ms FROM channel_replies WHERE message_id = $1`, [messageId]);
      return rows[0];
    },

    async deliveryStatus(
      integrationId: string,
      externalMessageId: string,
    ): Promise<{ status: string; error: string | null } | undefined> {
      const { rows } = await db.query<{ status: string; error: string | null }>(
        `SELECT status, error FROM channel_statuses WHERE integration_id = $1 AND external_message_id = $2`,
        [integrationId, externalMessageId],
      );
      return rows[0];
    },

    /**
     * The one inbox: every conversation with the owner's assistants — their own chats, the widget's, share
     * links' and the channels' — newest activity first, each with its channel and its last message.
     */
    async inbox(
      ownerId: string,
      options: { assistantId?: string; channel?: Channel; limit: number },
    ): Promise<InboxRow[]> {
      const { rows } = await db.query<InboxRow & { first_message: string | null }>(
        `SELECT t.id AS thread_id, a.numeric_id AS assistant_numeric_id, a.name AS assistant_name, t.channel, t.title, t.contact_name, t.taken_over,
                m.text AS last_message,
                (SELECT f.text FROM thread_messages f WHERE f.thread_id = t.id AND f.role = 'user' ORDER BY f.log_position, f.id LIMIT 1) AS first_message,
                floor(extract(epoch FROM COALESCE(m.created_at, t.created_at)))::int AS last_message_at,
                floor(extract(epoch FROM t.created_at))::int AS created_at
         FROM threads t
         JOIN assistants a ON a.id = t.assistant_id AND a.owner_id = $1
         LEFT JOIN LATERAL (
           SELECT text, created_at FROM thread_messages WHERE thread_id = t.id ORDER BY log_position DESC, id DESC LIMIT 1
         ) m ON true
         WHERE t.assistant_owner_id = $1
           -- A visitor's conversation shows from its first message (empty ones are opened by the dozen).
           AND (NOT t.is_public OR m.created_at IS NOT NULL)
           AND ($2::text IS NULL OR t.assistant_id = $2)
           AND ($3::text IS NULL OR t.channel = $3)
         ORDER BY last_message_at DESC, t.id
         LIMIT $4`,
        [ownerId, options.assistantId ?? null, options.channel ?? null, options.limit],
      );
      // Display-ready: a title from the first message until renamed, and the last message without the
      // redirect command the chat renders as a button (issue 22 items 5 and 16).
      return rows.map(({ first_message, ...row }) => ({
        ...row,
        title: row.title.trim() ? row.title : conversationTitleFrom(first_message),
        last_message: row.last_message === null ? null : displayText(row.last_message),
      }));
    },
  };
}
export type ChannelQueries = ReturnType<typeof channelQueries>;
