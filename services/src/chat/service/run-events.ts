import type { AllPosition } from '@kesher/contracts';
import type { MessageDto } from '@kesher/contracts';
import type { AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import type { RunRow, ThreadQueries, ThreadReader } from '@kesher/projections/threads/threads.queries';
import type { ReadModelProgress } from '../../platform/projections/read-model-progress.js';
import type { RunOutcome, RunStreamEvent, RunStreamHub } from '../run-stream-hub.js';
import { toMessageDto, toRunDto } from './chat-dtos.js';

/** What a followed run says, in the order it says it: deltas, then exactly one end. */
export type RunStreamMessage =
  | { event: 'delta'; id: number; data: { text: string } }
  | { event: 'completed'; data: { run_id: string; message: MessageDto | null } }
  | { event: 'failed' | 'expired'; data: { run_id: string; message: string } };

/** While the worker has not said it is done, re-read the run this often anyway (a lost end, a dead worker). */
const SAFETY_POLL_MS = 1000;
/** Without progress notifications, how often to re-read the run. */
const READ_MODEL_POLL_MS = 50;

export interface RunEventsDeps {
  threads: ThreadQueries;
  reader: ThreadReader;
  clock: () => Date;
  runStreams?: RunStreamHub;
  readModels?: ReadModelProgress;
}

export interface FollowedRun {
  assistant: Pick<AssistantRow, 'external_id'>;
  threadId: string;
  runId: string;
  /** When the run expires: the follow never sleeps past it. */
  deadlineAt: Date;
  /**
   * The run as read when access was checked; absent when this process requested it a moment ago and
   * knows it is queued (the read model is then asked only once the worker has something to say).
   */
  first?: RunRow;
  /** How far the threads read model was before `first` was read. */
  mark: AllPosition | undefined;
  /** Deltas the client already has (its Last-Event-ID). */
  afterSeq: number;
  /** Aborted when the client goes away: the loop stops at once. */
  signal: AbortSignal;
  /**
   * The worker's recorded outcome ended the stream before the read model showed it: told where in the
   * log, so the reader's next read (the messages the chat reloads) waits for the read model to get there.
   */
  onOutcome?: (position: AllPosition) => void;
}

/**
 * The live pieces come from the run stream hub; the end comes from the worker's recorded outcome when
 * the hub carries it (at once, as recorded), otherwise from the read model, which holds the stored answer
 * whichever process produced it. The loop sleeps until something can have changed: a
 * piece arrives, the worker ends its stream, the read model moves, the deadline passes, or the client
 * leaves — it never re-reads the run for a mere piece, and reads it at once when the worker says it is done.
 */
export async function* followRunEvents(deps: RunEventsDeps, run: FollowedRun): AsyncGenerator<RunStreamMessage> {
  const { threads, reader } = deps;
  const { threadId, runId, signal } = run;
  const pending: Extract<RunStreamEvent, { kind: 'delta' }>[] = [];
  let wake: (() => void) | undefined;
  const rouse = () => wake?.();
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  let row: RunRow | undefined = run.first;
  /** The run must be read before the next decision (the worker ended, or a safety re-read is due). */
  let stale = false;
  let mark = run.mark;
  // The worker's end of the stream says the outcome is recorded; the read model then shows it shortly.
  let workerDone = !deps.runStreams;
  let outcome: RunOutcome | undefined;
  const unfollow = deps.runStreams?.follow(runId, run.afterSeq, (event) => {
    if (event.kind === 'delta') pending.push(event);
    else {
      workerDone = stale = true;
      outcome = event.outcome;
    }
    rouse();
  });
  // Nothing to wait for in this process: read the run now.
  if (!deps.runStreams && !row) stale = true;
  signal.addEventListener('abort', rouse);
  try {
    while (!signal.aborted) {
      for (const delta of pending.splice(0)) yield { event: 'delta', id: delta.seq, data: { text: delta.text } };
      if (outcome) {
        run.onOutcome?.({ commit: BigInt(outcome.position.commit), prepare: BigInt(outcome.position.prepare) });
        yield endOf(outcome, run);
        return;
      }
      if (stale) {
        // Noting first how far the read model was, so a change landing during the read is not missed.
        mark = deps.readModels?.position('threads');
        stale = false;
        const read = await threads.run(reader, threadId, runId);
        // Gone from the read model (the thread was deleted), or never reached it before the deadline.
        // A run this process requested a moment ago may simply not be projected yet: wait for it.
        if (!read && (row || run.first || deps.clock() >= run.deadlineAt)) return;
        row = read;
      }
      const dto = row && toRunDto(row, run.assistant, deps.clock());
      if (dto && (dto.status === 'completed' || dto.status === 'failed' || dto.status === 'expired')) {
        // Pieces that arrived while the run was read still go first: the end is the last word.
        for (const delta of pending.splice(0)) yield { event: 'delta', id: delta.seq, data: { text: delta.text } };
        if (dto.status === 'completed') {
          const message = dto.message_id ? await threads.message(reader, threadId, dto.message_id) : undefined;
          yield { event: 'completed', data: { run_id: runId, message: message ? toMessageDto(message) : null } };
        } else {
          yield { event: dto.status, data: { run_id: runId, message: dto.last_error?.message ?? 'Unknown error occurred' } };
        }
        return;
      }
      if (pending.length > 0 || stale) continue;
      // A run past its deadline reads as expired, so never sleep beyond it.
      const cap = Math.min(SAFETY_POLL_MS, Math.max(0, run.deadlineAt.getTime() - deps.clock().getTime()) + 10);
      const wasDone = workerDone;
      if (!workerDone) {
        // Until the worker ends its stream; the slow re-read covers a lost end and a worker that died.
        await nap(cap);
      } else if (deps.readModels) {
        const napping = nap(cap);
        await Promise.race([deps.readModels.waitForMove('threads', mark, cap), napping]);
        rouse();
      } else {
        await nap(Math.min(READ_MODEL_POLL_MS, cap));
      }
      // Woken by a piece alone: nothing about the run's end can have changed, so it is not read again.
      if (pending.length > 0 && wasDone === workerDone) continue;
      stale = true;
    }
  } finally {
    signal.removeEventListener('abort', rouse);
    unfollow?.();
  }
}

/** The stream's last word from the worker's recorded outcome: what the read model will show, said now. */
function endOf(outcome: RunOutcome, run: FollowedRun): RunStreamMessage {
  const { runId, threadId } = run;
  if (outcome.status === 'completed') {
    const { id, text, sources, createdAt } = outcome.message;
    return { event: 'completed', data: { run_id: runId, message: toMessageDto({ id, thread_id: threadId, role: 'assistant', text, run_id: runId, sources, created_at: createdAt }) } };
  }
  // The same words the read model's run gives (toRunDto), from a row that says only how the run ended.
  const settled: RunRow = {
    id: runId,
    thread_id: threadId,
    assistant_id: '',
    status: outcome.status,
    error: outcome.status === 'failed' ? outcome.error : null,
    message_id: null,
    deadline_at: run.deadlineAt,
    created_at: 0,
    settled_at: null,
  };
  return { event: outcome.status, data: { run_id: runId, message: toRunDto(settled, run.assistant, new Date(0)).last_error?.message ?? 'Unknown error occurred' } };
}
