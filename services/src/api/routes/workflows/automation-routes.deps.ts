import { randomBytes } from 'node:crypto';
import { streamIds, type KesherEvent } from '@kesher/contracts';
import { automationQueries } from '@kesher/projections/automation/automation.queries';
import type { FastifyRequest } from 'fastify';
import { KeptSecretMissing } from '../../../automation/automation-mapper.js';
import { automationDecider, type AutomationCommand } from '../../../domain/automation/automation.decider.js';
import type { OutboundFetch } from '../../../outbound/outbound-fetch.js';
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

/** Runs a command on the signed-in owner's automation stream and waits for the read model. */
export function automationCommands(deps: AutomationRoutesDeps) {
  const run = createCommandRunner(deps);
  const queries = automationQueries(deps.readDb);
  return {
    queries,
    owner: (request: FastifyRequest) => requireAccount(request).id,
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
      return { ownerId, events: result.events as KesherEvent[] };
    },
  };
}
