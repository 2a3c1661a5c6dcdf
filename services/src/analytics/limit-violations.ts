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
   * Records that a limit refused a request, before the refusal is answered. A database error is retried
   * (`retryDelaysMs`); if every attempt fails it throws, so the caller answers an error instead of a
   * refusal nobody will ever see on the limits page.
   */
  record(context: CommandContext, refusal: LimitRefusal): Promise<void>;
}

/** Waits between attempts: about a second in all, enough to ride out a failover's first moments. */
const RETRY_DELAYS_MS = [50, 200, 800];

export class LimitViolationNotRecordedError extends Error {
  constructor(cause: unknown) {
    super('a limit refusal could not be recorded', { cause });
    this.name = 'LimitViolationNotRecordedError';
  }
}

/**
 * Why retry-then-throw and not "never throws": a refusal answered but not recorded (seen in a soak, 312
 * answered and 311 recorded, when Postgres ended a session) is a limits page that lies to the owner. Each
 * attempt records the same violation id on the same stream, and the decider records it once, so an
 * attempt whose commit succeeded but whose answer was lost is not recorded twice by the next.
 */
export function createLimitViolations(deps: {
  handle: CommandHandler;
  onError?: (error: unknown) => void;
  retryDelaysMs?: readonly number[];
}): LimitViolations {
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  return {
    async record(context, refusal) {
      const violationId = randomUUID();
      const command: RecordViolation = { type: 'RecordLimitViolation', data: { violationId, ...refusal } };
      for (let attempt = 0; ; attempt++) {
        try {
          await deps.handle(limitViolationDecider, streamIds.limitViolation(violationId), command, context);
          return;
        } catch (error) {
          deps.onError?.(error);
          if (attempt >= delays.length) throw new LimitViolationNotRecordedError(error);
          await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
        }
      }
    },
  };
}
