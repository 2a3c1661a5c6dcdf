import { randomUUID } from 'node:crypto';
import { streamIds, type LimitViolated } from '@kesher/contracts';
import type { CommandContext, CommandHandler } from '../platform/commands/command-handler.js';
import type { Decider, EventOf } from '../platform/commands/decider.js';

type RecordViolation = { type: 'RecordLimitViolation'; data: LimitViolated };
type LimitViolationEvent = EventOf<'LimitViolated'>;

/**
 * A refusal is a fact with no rule of its own to decide: each goes on a stream of its own (a fresh id),
 * so recording one never contends with anything, and the decider only shapes the event.
 */
export const limitViolationDecider: Decider<{ recorded: boolean }, RecordViolation, LimitViolationEvent> = {
  eventTypes: ['LimitViolated'],
  initialState: () => ({ recorded: false }),
  evolve: () => ({ recorded: true }),
  decide: (command, state) => (state.recorded ? [] : [{ type: 'LimitViolated', data: command.data }]),
};

export type LimitRefusal = Omit<LimitViolated, 'violationId'>;

export interface LimitViolations {
  /**
   * Records that a limit refused a request. Never throws: the refusal is answered whatever happens to
   * its record (a failure to record is reported to `onError`).
   */
  record(context: CommandContext, refusal: LimitRefusal): Promise<void>;
}

export function createLimitViolations(deps: { handle: CommandHandler; onError?: (error: unknown) => void }): LimitViolations {
  return {
    async record(context, refusal) {
      const violationId = randomUUID();
      try {
        await deps.handle(limitViolationDecider, streamIds.limitViolation(violationId), { type: 'RecordLimitViolation', data: { violationId, ...refusal } }, context);
      } catch (error) {
        deps.onError?.(error);
      }
    },
  };
}
