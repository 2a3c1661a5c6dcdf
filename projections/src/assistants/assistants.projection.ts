import type { Queryable } from '@kesher/contracts/ports/projection';
import { defineProjection, type EventOf } from '../shared/typed-projection.js';

/** Columns that mirror the profile one to one; the update statement is derived from this list. */
const profileColumns = {
  name: 'text',
  description: 'text',
  instructions: 'text',
  chat_limit: 'int',
  visitor_daily_limit: 'int',
  website_url: 'text',
  avatar_url: 'text',
  web_crawler: 'jsonb',
  payment_processing: 'jsonb',
} as const;

const updateAssignments = Object.entries(profileColumns)
  .map(([column, type]) => {
    const value = type === 'jsonb' ? `$2::jsonb -> '${column}'` : `($2::jsonb ->> '${column}')::${type}`;
    return `${column} = CASE WHEN $2::jsonb ? '${column}' THEN ${value} ELSE ${column} END`;
  })
  .join(',\n  ');

async function created(db: Queryable, event: EventOf<'AssistantCreated'>) {
  const { assistantId, numericId, externalId, ownerId, profile } = event.data;
  await db.query(
    `INSERT INTO assistants (id, numeric_id, external_id, owner_id, name, description, instructions, chat_limit,
       website_url, avatar_url, web_crawler, payment_processing, created_at, updated_at, visitor_daily_limit)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13, $13, $14)
     ON CONFLICT (id) DO NOTHING`,
    [
      assistantId,
      numericId,
      externalId,
      ownerId,
      profile.name,
      profile.description,
      profile.instructions,
      profile.chat_limit,
      profile.website_url,
      profile.avatar_url,
      JSON.stringify(profile.web_crawler),
      JSON.stringify(profile.payment_processing),
      event.metadata.timestamp,
      profile.visitor_daily_limit ?? null,
    ],
  );
}

async function updated(db: Queryable, event: EventOf<'AssistantUpdated'>) {
  await db.query(`UPDATE assistants SET ${updateAssignments}, updated_at = $3 WHERE id = $1`, [
    event.data.assistantId,
    JSON.stringify(event.data.changes),
    event.metadata.timestamp,
  ]);
}

async function deleted(db: Queryable, event: EventOf<'AssistantDeleted'>) {
  await db.query(`DELETE FROM assistants WHERE id = $1`, [event.data.assistantId]);
}

/** The owner's assistants, as the dashboard and the API read them. */
export const assistantsProjection = defineProjection({
  name: 'assistants',
  version: 2,
  tables: ['assistants'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS assistants (
  id text PRIMARY KEY,
  numeric_id int NOT NULL UNIQUE,
  external_id text NOT NULL UNIQUE,
  owner_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  instructions text NOT NULL,
  chat_limit int NOT NULL,
  website_url text,
  avatar_url text,
  web_crawler jsonb NOT NULL,
  payment_processing jsonb NOT NULL,
  share_token text UNIQUE,
  telegram_integration jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS assistants_owner ON assistants (owner_id, numeric_id);
`,
    },
    {
      // The owner's daily allowance per visitor (issue 21 item 12); null: the default. Older events never set it.
      id: '002-visitor-daily-limit',
      sql: `ALTER TABLE assistants ADD COLUMN IF NOT EXISTS visitor_daily_limit int;`,
    },
  ],
  on: {
    AssistantCreated: created,
    AssistantUpdated: updated,
    AssistantDeleted: deleted,
    async ShareTokenGenerated(db, event) {
      await db.query(`UPDATE assistants SET share_token = $2 WHERE id = $1`, [
        event.data.assistantId,
        event.data.token,
      ]);
    },
    async ShareTokenRevoked(db, event) {
      await db.query(`UPDATE assistants SET share_token = NULL WHERE id = $1`, [event.data.assistantId]);
    },
    // The dashboard card's "open Telegram bot" button shows while a Telegram bot is connected.
    async ChannelConnected(db, event) {
      const { assistantId, account } = event.data;
      if (account.kind === 'telegram')
        await db.query(`UPDATE assistants SET telegram_integration = $2 WHERE id = $1`, [
          assistantId,
          JSON.stringify({ bot_username: account.botUsername }),
        ]);
    },
    async ChannelDisconnected(db, event) {
      const { assistantId, kind } = event.data;
      if (kind === 'telegram')
        await db.query(`UPDATE assistants SET telegram_integration = NULL WHERE id = $1`, [assistantId]);
    },
  },
});
