import { randomUUID } from 'node:crypto';
import { streamIds } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantDecider } from '../../domain/assistant/assistant.decider.js';
import { createCommandHandler } from '../../platform/commands/command-handler.js';
import { newEvents } from '../../platform/commands/new-events.js';
import { withEventSchemas } from '../../platform/event-store/schema-checked.event-store.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { createPostgresEventStore, sampleProfile } from '../../testing/platform-fixture.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { createChatAssistants } from './chat-assistant.js';

const gate = await postgresAvailability();
const context = () => ({
  actor: { kind: 'account' as const, id: 'owner-1' },
  correlationId: randomUUID(),
  now: new Date(),
});

describe.skipIf(!gate.available)(
  `the chat's assistant, read from its stream${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let fx: Awaited<ReturnType<typeof createPostgresEventStore>>;
    let store: EventStore;
    beforeAll(async () => {
      fx = await createPostgresEventStore();
      store = withEventSchemas(fx.store);
    });
    afterAll(async () => fx?.close());

    /** An assistant whose stream holds `slots` knowledge-file slots besides its own facts. */
    async function assistantWith(slots: number) {
      const assistantId = randomUUID();
      const handle = createCommandHandler({ eventStore: store });
      const stream = streamIds.assistant(assistantId);
      await handle(
        assistantDecider,
        stream,
        {
          type: 'CreateAssistant',
          data: {
            assistantId,
            numericId: 3,
            externalId: `asst_${'b'.repeat(24)}`,
            ownerId: 'owner-1',
            profile: sampleProfile({ chat_limit: 40 }),
          },
        },
        context(),
      );
      for (let i = 0; i < slots; i += 200) {
        const batch = Array.from({ length: Math.min(200, slots - i) }, (_, j) => ({
          type: 'KnowledgeFileSlotTaken' as const,
          data: { assistantId, fileId: `file-${i + j}`, pool: 'crawl' as const },
        }));
        await store.appendToStream(stream, newEvents(batch, context(), randomUUID()), { expectedRevision: 'any' });
      }
      const command = (command: Parameters<typeof assistantDecider.decide>[0]) =>
        handle(assistantDecider, stream, command, context());
      return { assistantId, command };
    }

    it('has the link and limits in force now, on every process, for short and long streams alike', async () => {
      for (const slots of [0, 450]) {
        const { assistantId, command } = await assistantWith(slots);
        // Two API processes: each reads the stream (the long one remembered folded, then only its tail).
        const here = createChatAssistants(store);
        const there = createChatAssistants(store);
        expect(await here(assistantId)).toEqual({
          id: assistantId,
          numeric_id: 3,
          external_id: `asst_${'b'.repeat(24)}`,
          owner_id: 'owner-1',
          share_token: null,
          chat_limit: 40,
          visitor_daily_limit: null,
        });
        expect(await there(assistantId)).toEqual(await here(assistantId));

        await command({
          type: 'IssueShareToken',
          data: { assistantId, ownerId: 'owner-1', token: 'tok_first_aaaaaaaaaa', rotate: false },
        });
        expect((await here(assistantId))?.share_token).toBe('tok_first_aaaaaaaaaa');
        // Changed through the other process: this one sees it at its next read.
        await command({
          type: 'IssueShareToken',
          data: { assistantId, ownerId: 'owner-1', token: 'tok_rotated_aaaaaaaa', rotate: true },
        });
        await command({
          type: 'UpdateAssistant',
          data: { assistantId, ownerId: 'owner-1', changes: { chat_limit: 5 } },
        });
        expect(await there(assistantId)).toMatchObject({ share_token: 'tok_rotated_aaaaaaaa', chat_limit: 5 });
        expect(await here(assistantId)).toMatchObject({ share_token: 'tok_rotated_aaaaaaaa', chat_limit: 5 });
        await command({ type: 'DeleteAssistant', data: { assistantId, ownerId: 'owner-1' } });
        expect(await here(assistantId)).toBeUndefined();
      }
      expect(await createChatAssistants(store)(randomUUID())).toBeUndefined();
    });
  },
);
