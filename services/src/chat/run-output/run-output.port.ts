import { RunCompletedSchema } from '@kesher/contracts';
import { z } from 'zod';

/**
 * How a run ended, as recorded on its thread: the answer as the threads read model will hold it (its id,
 * text, sources and the second it was recorded), the failure, or the expiry.
 */
export const RunOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('completed'),
    message: z.object({
      id: z.string(),
      text: z.string(),
      sources: RunCompletedSchema.shape.sources,
      createdAt: z.number().int(),
    }),
  }),
  z.object({ status: z.literal('failed'), error: z.string() }),
  z.object({ status: z.literal('expired') }),
]);
export type RunOutcome = z.infer<typeof RunOutcomeSchema>;

/** How long a run's output is kept: far longer than a run may last (RUN_DEADLINE_SECONDS) or a client reconnects. */
export const RUN_OUTPUT_RETENTION_MS = 60 * 60 * 1000;

/** One row of a run's output as a follower sees it: bursts numbered from 1 (the SSE event id), then one end. */
export type RunOutputEvent = { kind: 'delta'; seq: number; text: string } | { kind: 'end'; outcome: RunOutcome };

/** The ai-runner's side: what the model says, as it says it, then how the run ended. */
export interface RunOutputWriter {
  /**
   * Claims the run for `claimant` (one answer of one worker) and writes `text`, the answer's first words
   * (none: ''), with the claim, in one statement. True when the run is the claimant's (claimed now, or
   * earlier by the same claimant); false when another claimant holds it, and then nothing is written.
   * Every worker claims a run before any of its words or its outcome is recorded, so two workers handed
   * the same request (a rebalance, a redelivery after a crash) never both answer it; the claim is the
   * output's row 0, which followers never read.
   */
  claim(runId: string, claimant: string, text: string): Promise<boolean>;
  /** Queues a piece of the answer after the claim; pieces are written in bursts, in order, never one round trip per token. */
  append(runId: string, text: string): void;
  /**
   * Writes what is still queued, then the end row with `outcome`. Without an outcome (the decision recorded
   * none: the run was settled elsewhere, or the write failed) only the queued pieces are written: followers
   * then learn the end from the thread (`recordedOutcome`).
   */
  end(runId: string, outcome: RunOutcome | undefined): Promise<void>;
  /** Deletes the output of runs written before `before` (retention; the run sweep calls it). */
  prune(before: Date): Promise<number>;
}

export interface FollowOptions {
  runId: string;
  /** The last burst the client has (its Last-Event-ID; 0 for none). */
  afterSeq: number;
  /** The run's deadline: past it (and a short grace for the worker's own end row), a run with no recorded outcome ends as expired. */
  deadlineAt: Date;
  /** Aborted when the client goes away: the follow stops at once. */
  signal: AbortSignal;
  /**
   * The run's outcome as recorded on its thread (the write side), or undefined while it runs. Asked on the
   * safety tick and at the deadline, so a run whose worker died before writing its end row still ends.
   */
  recordedOutcome: () => Promise<RunOutcome | undefined>;
}

/** The SSE route's side: any process can follow any run, from any point. */
export interface RunOutputReader {
  /** The bursts after `afterSeq` in order, then exactly one end (unless aborted). */
  follow(options: FollowOptions): AsyncGenerator<RunOutputEvent>;
  /** Whether a worker has claimed the run (it is being answered, though its start is not on the thread yet). */
  claimed(runId: string): Promise<boolean>;
}
