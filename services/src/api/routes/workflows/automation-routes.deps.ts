import { randomBytes } from 'node:crypto';
import { streamIds, type KesherEvent } from '@kesher/contracts';
import { automationQueries, type Saved } from '@kesher/projections/automation/automation.queries';
import type { FastifyRequest } from 'fastify';
import { KeptSecretMissing } from '../../../automation/index.js';
import {
  automationDecider,
  type AutomationCommand,
  type AutomationState,
} from '../../../domain/automation/automation.decider.js';
import type { OutboundFetch } from '../../../outbound/index.js';
import { aggregateStream } from '../../../platform/commands/aggregate-stream.js';
import type { CommandHandler } from '../../../platform/commands/command-handler.js';
import type { EventStore } from '../../../platform/event-store/event-store.port.js';
import type { AwaitReadModels } from '../../../platform/projections/read-model-progress.js';
import type { SecretBox } from '../../../platform/secrets/secret-box.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { createCommandRunner } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

/** What the workflow, guideline, action and external-API routes need. */
export interface AutomationRoutesDeps {
  handle: CommandHandler;
  readDb: Sql;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  /** Seals and opens secrets (action headers, endpoint auth values). */
  secrets: SecretBox;
  /** The one guarded outbound fetch (the crawler's SSRF guard), for action tests and test-connection. */
  fetch: OutboundFetch;
  /** The log: the configuration at an instant is the owner's automation stream folded up to it. */
  eventStore: EventStore;
}

export const newAutomationId = (prefix: 'wf' | 'gl' | 'act') => `${prefix}_${randomBytes(9).toString('base64url')}`;

/** What savedItem needs of a save's run: whether the read models applied it, and the state it decided. */
export interface SavedResult {
  readModelsCurrent: boolean;
  state: AutomationState;
}

/**
 * What a save answers: the read model's row when it has applied the write, else the item as the command
 * decided it (its fields from the decided state; its creation time from the row the read model still
 * has, if any). The answer is then marked pending by the runner (Kesher-Consistency: pending), never the
 * previous version read as if it were the new one.
 */
export async function savedItem<Fields>(input: {
  ownerId: string;
  id: string;
  result: SavedResult;
  decided: (state: AutomationState) => Fields | undefined;
  read: () => Promise<Saved<Fields> | undefined>;
  now: () => Date;
  notFound: string;
}): Promise<Saved<Fields>> {
  const row = await input.read();
  if (row && input.result.readModelsCurrent) return row;
  const fields = input.decided(input.result.state);
  if (!fields) throw new ApiError(404, input.notFound);
  const now = input.now().toISOString();
  return { id: input.id, ownerId: input.ownerId, fields, createdAt: row?.createdAt ?? now, updatedAt: now };
}

/** Runs a command on the signed-in owner's automation stream and waits for the read model. */
export function automationCommands(deps: AutomationRoutesDeps) {
  const run = createCommandRunner(deps);
  const queries = automationQueries(deps.readDb);
  return {
    queries,
    owner: (request: FastifyRequest) => requireAccount(request).id,
    /**
     * The owner's automation as the log has it: what an edit builds on (a toggle's other fields, the
     * secrets a masked header keeps), so it never builds on a version the read model has not caught up with.
     */
    decided: async (ownerId: string) =>
      (await aggregateStream(deps.eventStore, automationDecider, streamIds.automation(ownerId))).state,
    async run(request: FastifyRequest, build: (ownerId: string) => AutomationCommand) {
      const ownerId = requireAccount(request).id;
      let command: AutomationCommand;
      try {
        command = build(ownerId);
      } catch (error) {
        // Nothing is saved when a masked secret has nothing to keep.
        if (error instanceof KeptSecretMissing) throw new ApiError(422, error.message);
        throw error;
      }
      const result = await run(request, automationDecider, streamIds.automation(ownerId), command);
      // readModelsCurrent false: the read model may still hold the previous version (see savedItem).
      return {
        ownerId,
        events: result.events as KesherEvent[],
        state: result.state,
        readModelsCurrent: result.readModelsCurrent,
      };
    },
  };
}
