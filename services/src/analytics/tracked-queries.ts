import { randomUUID } from 'node:crypto';
import { streamIds, type QueryTracked } from '@kesher/contracts';
import type { CommandContext, CommandHandler } from '../platform/commands/command-handler.js';
import type { Decider, EventOf } from '../platform/commands/decider.js';

type TrackQuery = { type: 'TrackQuery'; data: QueryTracked };

/** A tracked query is the owner's report of a fact: one stream each, nothing to decide but its shape. */
export const trackedQueryDecider: Decider<{ tracked: boolean }, TrackQuery, EventOf<'QueryTracked'>> = {
  eventTypes: ['QueryTracked'],
  initialState: () => ({ tracked: false }),
  evolve: () => ({ tracked: true }),
  decide: (command, state) => (state.tracked ? [] : [{ type: 'QueryTracked', data: command.data }]),
};

export function createQueryTracker(deps: { handle: CommandHandler }) {
  return async function track(context: CommandContext, query: Omit<QueryTracked, 'queryId'>) {
    const queryId = `query_${randomUUID().replaceAll('-', '')}`;
    const result = await deps.handle(
      trackedQueryDecider,
      streamIds.trackedQuery(queryId),
      { type: 'TrackQuery', data: { queryId, ...query } },
      context,
    );
    return { queryId, appended: result.appended, events: result.events };
  };
}
