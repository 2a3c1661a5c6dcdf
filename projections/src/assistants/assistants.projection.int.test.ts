import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readModel, recorded, type ReadModelUnderTest } from '../testing/given-then.js';
import { assistantsProjection } from './assistants.projection.js';

const profile = {
  name: 'Bakery',
  description: 'The bakery on the corner',
  instructions: 'Answer from the menu',
  chat_limit: 20,
  website_url: null,
  avatar_url: null,
  web_crawler: { enabled: false, website_url: null, max_pages: 50, max_depth: 2, delete_orphaned_pages: false },
  payment_processing: { enabled: false, sales_prompt: '' },
};
const created = (assistantId: string, numericId: number, ownerId = 'owner-1') =>
  recorded(
    'AssistantCreated',
    { assistantId, numericId, externalId: `asst_${String(numericId).padStart(24, '0')}`, ownerId, profile },
    { at: '2026-11-01T10:00:00.000Z' },
  );

describe('assistants read model, given events then rows', () => {
  let model: ReadModelUnderTest;
  // Starting PGlite (WebAssembly) took over two minutes on the shared 2-core machine under load: a margin, not a wait.
  beforeAll(async () => void (model = await readModel(assistantsProjection)), 600_000);
  beforeEach(async () => model.reset());
  afterAll(async () => model.close());

  const assistants = () =>
    model.rows(
      `SELECT id, owner_id, name, chat_limit, visitor_daily_limit, web_crawler, share_token, telegram_integration
       FROM assistants ORDER BY numeric_id`,
    );

  it("lists a created assistant under its owner, with the profile's fields", async () => {
    await model.given(created('a-1', 1), created('a-2', 2, 'owner-2'));
    expect(await assistants()).toEqual([
      {
        id: 'a-1',
        owner_id: 'owner-1',
        name: 'Bakery',
        chat_limit: 20,
        visitor_daily_limit: null,
        web_crawler: profile.web_crawler,
        share_token: null,
        telegram_integration: null,
      },
      expect.objectContaining({ id: 'a-2', owner_id: 'owner-2' }),
    ]);
  });

  it('changes only the fields an update names, and the later of two updates wins', async () => {
    await model.given(created('a-1', 1));
    await model.given(
      recorded('AssistantUpdated', { assistantId: 'a-1', changes: { name: 'Bakery & Cafe', visitor_daily_limit: 5 } }),
      recorded('AssistantUpdated', { assistantId: 'a-1', changes: { name: 'Cafe' } }),
    );
    expect(await assistants()).toEqual([
      expect.objectContaining({
        name: 'Cafe',
        chat_limit: 20,
        visitor_daily_limit: 5,
        web_crawler: profile.web_crawler,
      }),
    ]);
  });

  it('holds the share token until it is revoked, and the Telegram bot while it is connected', async () => {
    await model.given(created('a-1', 1));
    await model.given(
      recorded('ShareTokenGenerated', { assistantId: 'a-1', token: 'share-token-0123456789' }),
      recorded('ChannelConnected', {
        integrationId: 'int-1',
        assistantId: 'a-1',
        ownerId: 'owner-1',
        account: { kind: 'telegram', botId: 42, botUsername: 'bakery_bot' },
        sealedSecrets: 'sealed',
        tokenLast4: 'abcd',
      }),
    );
    expect(await assistants()).toEqual([
      expect.objectContaining({
        share_token: 'share-token-0123456789',
        telegram_integration: { bot_username: 'bakery_bot' },
      }),
    ]);
    await model.given(
      recorded('ShareTokenRevoked', { assistantId: 'a-1' }),
      // Another channel's disconnection leaves the Telegram bot.
      recorded('ChannelDisconnected', {
        integrationId: 'int-2',
        assistantId: 'a-1',
        kind: 'whatsapp',
        reason: 'owner',
      }),
    );
    expect(await assistants()).toEqual([
      expect.objectContaining({ share_token: null, telegram_integration: { bot_username: 'bakery_bot' } }),
    ]);
    await model.given(
      recorded('ChannelDisconnected', {
        integrationId: 'int-1',
        assistantId: 'a-1',
        kind: 'telegram',
        reason: 'owner',
      }),
    );
    expect(await assistants()).toEqual([expect.objectContaining({ telegram_integration: null })]);
  });

  it('drops a deleted assistant, and only it', async () => {
    await model.given(created('a-1', 1), created('a-2', 2));
    await model.given(recorded('AssistantDeleted', { assistantId: 'a-1' }));
    expect((await assistants()).map((a) => a.id)).toEqual(['a-2']);
  });
});
