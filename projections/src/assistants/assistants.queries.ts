import type { WebCrawlerSettings, SalesMode } from '@kesher/contracts';
import type { Queryable } from '../projection.js';

export interface AssistantRow {
  id: string;
  numeric_id: number;
  external_id: string;
  owner_id: string;
  name: string;
  description: string;
  instructions: string;
  chat_limit: number;
  website_url: string | null;
  avatar_url: string | null;
  web_crawler: WebCrawlerSettings;
  payment_processing: SalesMode;
  share_token: string | null;
  telegram_integration: { bot_username: string } | null;
  created_at: Date;
  updated_at: Date;
}

/** Every query is scoped by owner: one owner can never read another's assistants through these. */
export function assistantQueries(db: Queryable) {
  return {
    async listByOwner(ownerId: string): Promise<AssistantRow[]> {
      const { rows } = await db.query<AssistantRow>(`SELECT * FROM assistants WHERE owner_id = $1 ORDER BY numeric_id`, [ownerId]);
      return rows;
    },
    async findByShareToken(token: string): Promise<AssistantRow | undefined> {
      const { rows } = await db.query<AssistantRow>(`SELECT * FROM assistants WHERE share_token = $1`, [token]);
      return rows[0];
    },
    async findOwned(ownerId: string, numericId: number): Promise<AssistantRow | undefined> {
      const { rows } = await db.query<AssistantRow>(`SELECT * FROM assistants WHERE owner_id = $1 AND numeric_id = $2`, [ownerId, numericId]);
      return rows[0];
    },
  };
}
