import type { MessageDto } from '@kesher/contracts';
import type { RunOutcome, RunOutputReader } from '../run-output/run-output.port.js';
import { runStatusOf, toMessageDto } from './chat-dtos.js';

export type { RunOutcome } from '../run-output/run-output.port.js';

/** What a followed run says, in the order it says it: deltas, then exactly one end. */
export type RunStreamMessage =
  | { event: 'delta'; id: number; data: { text: string } }
  | { event: 'completed'; data: { run_id: string; message: MessageDto | null } }
  | { event: 'failed' | 'expired'; data: { run_id: string; message: string } };

export interface RunEventsDeps {
  output: RunOutputReader;
  clock: () => Date;
}

export interface FollowedRun {
  threadId: string;
  runId: string;
  /** When the run expires: past it, a run with no recorded outcome ends as expired. */
  deadlineAt: Date;
  /** Deltas the client already has (its Last-Event-ID). */
  afterSeq: number;
  /** Aborted when the client goes away: the follow stops at once. */
  signal: AbortSignal;
  /** The run's outcome as recorded on its thread, or undefined while it runs (see FollowOptions). */
  recordedOutcome: () => Promise<RunOutcome | undefined>;
}

/**
 * A run's output (run-output/) as the SSE route says it: each burst a `delta` whose id is its number, then
 * exactly one of `completed` (with the answer as the chat shows it), `failed` or `expired`.
 */
export async function* followRunEvents(deps: RunEventsDeps, run: FollowedRun): AsyncGenerator<RunStreamMessage> {
  const { runId, deadlineAt, afterSeq, signal, recordedOutcome } = run;
  for await (const event of deps.output.follow({ runId, afterSeq, deadlineAt, signal, recordedOutcome })) {
    if (event.kind === 'delta') yield { event: 'delta', id: event.seq, data: { text: event.text } };
    else {
      yield endOf(event.outcome, run, deps.clock());
      return;
    }
  }
}

/** The stream's last word: the answer as the threads read model holds it, or the words its run gives for the failure. */
function endOf(outcome: RunOutcome, run: FollowedRun, now: Date): RunStreamMessage {
  const { runId, threadId } = run;
  if (outcome.status === 'completed') {
    const { id, text, sources, createdAt } = outcome.message;
    return {
      event: 'completed',
      data: {
        run_id: runId,
        message: toMessageDto({
          id,
          thread_id: threadId,
          role: 'assistant',
          text,
          run_id: runId,
          sources,
          created_at: createdAt,
        }),
      },
    };
  }
  // The same words the read model's run gives (toRunDto), from what says only how the run ended.
  const settled = {
    status: outcome.status,
    error: outcome.status === 'failed' ? outcome.error : null,
    deadline_at: run.deadlineAt,
  };
  return {
    event: outcome.status,
    data: { run_id: runId, message: runStatusOf(settled, now).last_error?.message ?? 'Unknown error occurred' },
  };
}
