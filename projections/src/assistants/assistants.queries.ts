import type { WebCrawlerSettings, SalesMode } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';

export interface AssistantRow {
  id: string;
  numeric_id: number;
  external_id: string;
  owner_id: string;
  name: string;
  description: string;
  instructions: string;
  chat_limit: number;
  /** Answered messages per visitor per day; null: the default (limits.visitorDailyLimitDefault). */
  visitor_daily_limit: number | null;
  website_url: string | null;
  avatar_url: string | null;
  web_crawler: WebCrawlerSettings;
  payment_processing: SalesMode;
  share_token: string | null;
  telegram_integration: { bot_username: string } | null;
  /** ISO 8601, UTC (formatted by Postgres: cheaper than parsing dates row by row). */
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, numeric_id, external_id, owner_id, name, description, instructions, chat_limit, visitor_daily_limit, website_url, avatar_url,
  web_crawler, payment_processing, share_token, telegram_integration,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

/** Every query is scoped by owner: one owner can never read another's assistants through these. */
export function assistantQueries(db: Queryable) {
  return {
    async listByOwner(ownerId: string): Promise<AssistantRow[]> {
      const { rows } = await db.query<AssistantRow>(
        `SELECT ${COLUMNS} FROM assistants WHERE owner_id = $1 ORDER BY numeric_id`,
        [ownerId],
      );
      return rows;
    },
    async findByShareToken(token: string): Promise<AssistantRow | undefined> {
      const { rows } = await db.query<AssistantRow>(`SELECT ${COLUMNS} FROM assistants WHERE share_token = $1`, [
        token,
      ]);
      return rows[0];
    },
    /** The owner's assistant by the `asst_…` id a run names. */
    async findOwnedByExternalId(ownerId: string, externalId: string): Promise<AssistantRow | undefined> {
      const { rows } = await db.query<AssistantRow>(
        `SELECT ${COLUMNS} FROM assistants WHERE owner_id = $1 AND external_id = $2`,
        [ownerId, externalId],
      );
      return rows[0];
    },
    /** Public chat: the assistant only when the visitor holds its current share token. */
    async findShared(numericId: number, shareToken: string): Promise<AssistantRow | undefined> {
      const { rows } = await db.query<AssistantRow>(
        `SELECT ${COLUMNS} FROM assistants WHERE numeric_id = $1 AND share_token = $2`,
        [numericId, shareToken],
      );
      return rows[0];
    },
    /** System reads (workers acting on an event that already names the assistant); never behind a route. */
    async findById(assistantId: string): Promise<AssistantRow | undefined> {
      const { rows } = await db.query<AssistantRow>(`SELECT ${COLUMNS} FROM assistants WHERE id = $1`, [assistantId]);
      return rows[0];
    },
    async findOwned(ownerId: string, numericId: number): Promise<AssistantRow | undefined> {
      const { rows } = await db.query<AssistantRow>(
        `SELECT ${COLUMNS} FROM assistants WHERE owner_id = $1 AND numeric_id = $2`,
        [ownerId, numericId],
      );
      return rows[0];
    },
  };
}
