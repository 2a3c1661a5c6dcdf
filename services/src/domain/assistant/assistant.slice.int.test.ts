import { randomUUID } from 'node:crypto';
import { EventSchemaError, streamIds, type Actor } from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { createPostgresPlatform, sampleProfile } from '../../testing/platform-fixture.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { accountDecider } from '../account/account.decider.js';
import { assistantDecider } from './assistant.decider.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(
  `assistant vertical slice on real Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let platform: Awaited<ReturnType<typeof createPostgresPlatform>>;
    beforeAll(async () => {
      platform = await createPostgresPlatform();
      await platform.runner.start();
    });
    afterAll(async () => platform?.close());

    const context = (actor: Actor) => ({ actor, correlationId: randomUUID(), now: new Date('2026-11-22T10:00:00Z') });

    async function register(email: string) {
      const accountId = randomUUID();
      const actor: Actor = { kind: 'account', id: accountId };
      await platform.handle(
        accountDecider,
        streamIds.account(accountId),
        {
          type: 'RegisterAccount',
          data: { accountId, email, displayName: null, passwordHash: 'x', provider: 'password', photoUrl: null },
        },
        context(actor),
      );
      return actor;
    }

    it('registers an account and creates, updates and deletes an assistant through events into the read model', async () => {
      const owner = await register('owner@example.com');
      const assistantId = randomUUID();
      const stream = streamIds.assistant(assistantId);
      const ids = { assistantId, numericId: 1, externalId: 'asst_ABCDEFGHIJKLMNOPQRSTUVWX', ownerId: owner.id };
      const queries = assistantQueries(platform.sql);

      const created = await platform.handle(
        assistantDecider,
        stream,
        { type: 'CreateAssistant', data: { ...ids, profile: sampleProfile() } },
        context(owner),
      );
      expect(await platform.runner.waitForPosition(created.appended!.position)).toBe(true);
      expect(await queries.listByOwner(owner.id)).toMatchObject([
        { id: assistantId, numeric_id: 1, name: 'Bakery helper', chat_limit: 100 },
      ]);

      const updated = await platform.handle(
        assistantDecider,
        stream,
        {
          type: 'UpdateAssistant',
          data: { assistantId, ownerId: owner.id, changes: { name: 'Cake helper', chat_limit: 40 } },
        },
        context(owner),
      );
      expect(await platform.runner.waitForPosition(updated.appended!.position)).toBe(true);
      expect(await queries.findOwned(owner.id, 1)).toMatchObject({
        name: 'Cake helper',
        chat_limit: 40,
        description: 'Answers questions about our bakery',
      });

      const stranger = await register('stranger@example.com');
      expect(await queries.findOwned(stranger.id, 1)).toBeUndefined();
      await expect(
        platform.handle(
          assistantDecider,
          stream,
          { type: 'DeleteAssistant', data: { assistantId, ownerId: stranger.id } },
          context(stranger),
        ),
      ).rejects.toBeInstanceOf(DomainError);

      const deleted = await platform.handle(
        assistantDecider,
        stream,
        { type: 'DeleteAssistant', data: { assistantId, ownerId: owner.id } },
        context(owner),
      );
      expect(await platform.runner.waitForPosition(deleted.appended!.position)).toBe(true);
      expect(await queries.listByOwner(owner.id)).toEqual([]);

      const events = await platform.eventStore.readStream(stream);
      expect(events.map((e) => e.type)).toEqual(['AssistantCreated', 'AssistantUpdated', 'AssistantDeleted']);
      expect(events.every((e) => e.metadata.actor.id === owner.id)).toBe(true);
    });

    it('rejects a malformed event with a clear error and appends nothing', async () => {
      const assistantId = randomUUID();
      const stream = streamIds.assistant(assistantId);
      const bad = {
        assistantId,
        numericId: 2,
        externalId: 'not-an-external-id',
        ownerId: 'someone',
        profile: sampleProfile(),
      };
      const attempt = platform.handle(
        assistantDecider,
        stream,
        { type: 'CreateAssistant', data: bad },
        context({ kind: 'system', id: 'test' }),
      );
      await expect(attempt).rejects.toBeInstanceOf(EventSchemaError);
      await expect(attempt).rejects.toThrow(/externalId/);
      expect(await platform.eventStore.readStream(stream)).toEqual([]);
    });

    it('retries a command that loses a race and decides again on the new state', async () => {
      const owner = await register('racer@example.com');
      const assistantId = randomUUID();
      const stream = streamIds.assistant(assistantId);
      await platform.handle(
        assistantDecider,
        stream,
        {
          type: 'CreateAssistant',
          data: {
            assistantId,
            numericId: 3,
            externalId: 'asst_000000000000000000000003',
            ownerId: owner.id,
            profile: sampleProfile(),
          },
        },
        context(owner),
      );
      const limits = [11, 12, 13, 14, 15];
      const results = await Promise.all(
        limits.map((chat_limit) =>
          platform.handle(
            assistantDecider,
            stream,
            { type: 'UpdateAssistant', data: { assistantId, ownerId: owner.id, changes: { chat_limit } } },
            context(owner),
          ),
        ),
      );
      expect(results.every((r) => r.appended)).toBe(true);
      const events = await platform.eventStore.readStream(stream);
      expect(events).toHaveLength(6);
    });
  },
);
