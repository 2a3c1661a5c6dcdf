import { randomUUID } from 'node:crypto';
import { ChannelKindSchema, streamIds } from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { knowledgeQueries } from '@kesher/projections/knowledge/knowledge.queries';
import { threadQueries } from '@kesher/projections/threads/threads.queries';
import type { createBillingService } from '../billing/index.js';
import type { ChannelConnections } from '../channels/index.js';
import { createAssistantErasure } from '../assistants/index.js';
import { assistantDecider, fileSlotsOf } from '../domain/assistant/assistant.decider.js';
import type { DriveConnections, GoogleDriveClient } from '../drive/index.js';
import { ALL_SESSIONS, type RunAccountCommand, type SessionStore } from '../identity/index.js';
import type { PlanAllowances } from '../plans/index.js';
import type { CommandContext } from '../platform/commands/command-handler.js';
import { DomainError } from '../platform/commands/decider.js';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import { type AccountDeletion, createAccountDeletion, type SubjectErasure } from '../privacy/index.js';
import type { Platform } from './compose-platform.js';

/** Wires "Delete my account" to the modules that own each part of an account (docs/privacy.md). */
export function composeAccountDeletion(wiring: {
  platform: Platform;
  erasure: SubjectErasure;
  runAccountCommand: RunAccountCommand;
  sessions: SessionStore;
  sessionsEnded: () => Promise<void>;
  billing: Pick<ReturnType<typeof createBillingService>, 'cancel'> | null;
  channels: ChannelConnections;
  drive: { client: GoogleDriveClient | null; connections: DriveConnections };
  allowances: PlanAllowances;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
}): AccountDeletion {
  const { platform } = wiring;
  const assistants = assistantQueries(platform.sql);
  const knowledge = knowledgeQueries(platform.sql);
  const threads = threadQueries(platform.sql);
  const context = (ownerId: string): CommandContext => ({
    actor: { kind: 'account', id: ownerId },
    correlationId: randomUUID(),
    now: wiring.clock(),
  });
  const eraseAssistant = createAssistantErasure({
    handle: platform.handle,
    eventStore: platform.eventStore,
    awaitReadModels: wiring.awaitReadModels,
    filesOf: async (ownerId, assistantId) => (await knowledge.listFiles(ownerId, assistantId)).map((file) => file.id),
    threadsOf: async (ownerId, assistantId) =>
      (await threads.threadsOfAssistant(ownerId, assistantId)).map((thread) => thread.id),
  });

  return createAccountDeletion({
    erasure: wiring.erasure,
    onStepError: (step, error) => platform.log.warn({ err: error }, `account deletion: ${step} failed; going on`),
    steps: {
      async cancelSubscription(ownerId) {
        try {
          await wiring.billing?.cancel(ownerId, true);
        } catch (error) {
          // Nothing to cancel (never subscribed, or already ended): nothing will be charged.
          if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
        }
      },
      async disconnectChannels(ownerId) {
        const { rows } = await platform.sql.query<{ assistant_id: string; kind: string }>(
          `SELECT assistant_id, kind FROM channel_integrations WHERE owner_id = $1 AND active`,
          [ownerId],
        );
        const owned = new Map((await assistants.listByOwner(ownerId)).map((row) => [row.id, row]));
        for (const row of rows) {
          const assistant = owned.get(row.assistant_id);
          if (assistant)
            await wiring.channels.disconnect(context(ownerId), ownerId, assistant, ChannelKindSchema.parse(row.kind));
        }
      },
      async revokeDrive(ownerId) {
        const refreshToken = await wiring.drive.connections.refreshToken(ownerId);
        await wiring.drive.connections.forget(ownerId);
        if (refreshToken && wiring.drive.client) await wiring.drive.client.revoke(refreshToken);
      },
      async deleteAssistants(ownerId) {
        for (const row of await assistants.listByOwner(ownerId)) {
          const ctx = context(ownerId);
          const { state } = await platform.handle(
            assistantDecider,
            streamIds.assistant(row.id),
            { type: 'DeleteAssistant', data: { assistantId: row.id, ownerId } },
            ctx,
          );
          await wiring.allowances.releaseAssistants(ctx, ownerId, [row.id]);
          await eraseAssistant(ctx, {
            ownerId,
            assistantId: row.id,
            fileSlots: fileSlotsOf(state),
          });
        }
      },
      async releaseAddress(account) {
        await wiring.runAccountCommand(
          account.email,
          { type: 'DeleteAccount', data: { accountId: account.id } },
          account.id,
        );
      },
      async endSessions(ownerId) {
        await wiring.sessions.endSessionsBefore(ownerId, ALL_SESSIONS);
        await wiring.sessionsEnded();
      },
    },
  });
}
