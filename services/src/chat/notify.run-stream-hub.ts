import { z } from 'zod';
import type { Sql } from '../platform/sql/sql.port.js';
import { createRunStreamHub, type RunOutcome, type RunStreamHub } from './run-stream-hub.js';

/** One channel for every run (the run id is in the payload): one LISTEN per API process, not one per stream. */
export const RUN_DELTAS_CHANNEL = 'kesher_run_deltas';

/** Postgres refuses payloads of 8000 bytes or more; keep a margin. */
export const MAX_PAYLOAD_BYTES = 7900;

const PositionSchema = z.object({ commit: z.string().regex(/^\d+$/), prepare: z.string().regex(/^\d+$/) });
const OutcomeSchema: z.ZodType<RunOutcome> = z.union([
  z.object({
    status: z.literal('completed'),
    message: z.object({
      id: z.string(),
      text: z.string(),
      sources: z.array(z.object({ fileId: z.string(), filename: z.string(), sourceUrl: z.string().nullable(), section: z.string().nullable() })),
      createdAt: z.number().int(),
    }),
    position: PositionSchema,
  }),
  z.object({ status: z.literal('failed'), error: z.string(), position: PositionSchema }),
  z.object({ status: z.literal('expired'), position: PositionSchema }),
]);

const PayloadSchema = z.union([
  z.object({ r: z.string().min(1), s: z.number().int().positive(), t: z.string() }),
  z.object({ r: z.string().min(1), e: z.literal(1), o: OutcomeSchema.optional() }),
]);

/** UTF-8 bytes a piece of text takes inside a JSON string (quotes excluded). */
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

/** The longest head of `text` (whole code points) whose JSON form fits in `budget` bytes, and the rest. */
export function cutToFit(text: string, budget: number): [head: string, rest: string] {
  if (jsonBytes(text) <= budget) return [text, ''];
  let used = 0;
  let end = 0;
  for (const point of text) {
    const size = jsonBytes(point);
    if (used + size > budget) break;
    used += size;
    end += point.length;
  }
  return [text.slice(0, end), text.slice(end)];
}

interface Outgoing {
  pending: string;
  seq: number;
  ended: boolean;
  outcome?: RunOutcome;
  endSent: boolean;
  sending: boolean;
}

export interface NotifyRunStreamHub extends RunStreamHub {
  /** Starts receiving (the API side). Deltas sent before this are never seen here. */
  listen(): Promise<void>;
  /** Resolves once every piece handed to `append`/`end` so far has been sent (tests, shutdown). */
  flushed(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Live answers across processes through Postgres LISTEN/NOTIFY, for the split deployment (api.main and
 * workers.main on one Postgres).
 *
 * Sending (the ai-runner): per run, one NOTIFY in flight at a time, so pieces arrive in order; pieces
 * produced meanwhile are merged into the next notification (cut to the payload limit), which keeps a fast
 * provider from queueing one round trip per token. Each notification carries its sequence number.
 *
 * Receiving (the API): one LISTEN connection feeds an in-process hub, which keeps recent runs for
 * Last-Event-ID replay, exactly like the embedded default. A run whose sequence has a hole — it began
 * before this process listened, or a notification was lost while the connection was down — gets no more
 * live pieces here: its stream ends with the stored answer, which is complete, instead of showing a text
 * with a piece missing. Every API instance receives every run's pieces; that is the price of not
 * opening a connection per open stream.
 */
export function createNotifyRunStreamHub(deps: { sql: Sql; capacity?: number; onError?: (error: unknown) => void }): NotifyRunStreamHub {
  const capacity = deps.capacity ?? 1000;
  const local = createRunStreamHub({ capacity });
  const outgoing = new Map<string, Outgoing>();
  const sending = new Set<Promise<void>>();
  /** Last sequence received per run in order, or 'hole' once one was missed. */
  const received = new Map<string, number | 'hole'>();
  let unlisten: (() => Promise<void>) | undefined;

  const notify = (payload: object) => deps.sql.query(`SELECT pg_notify($1, $2)`, [RUN_DELTAS_CHANNEL, JSON.stringify(payload)]);

  async function pump(runId: string, run: Outgoing) {
    run.sending = true;
    try {
      // Room for the text once the envelope (with the largest sequence number we could use) is counted.
      const budget = MAX_PAYLOAD_BYTES - Buffer.byteLength(JSON.stringify({ r: runId, s: Number.MAX_SAFE_INTEGER, t: '' }));
      while (run.pending !== '' || (run.ended && !run.endSent)) {
        try {
          if (run.pending !== '') {
            const [piece, rest] = cutToFit(run.pending, budget);
            run.pending = rest;
            // The number is taken even if the send fails: receivers then see the hole and stop showing pieces.
            await notify({ r: runId, s: ++run.seq, t: piece });
          } else {
            run.endSent = true;
            // The outcome rides along when it fits (a long answer does not): without it, the stream ends with the stored answer.
            const withOutcome = run.outcome && { r: runId, e: 1, o: run.outcome };
            await notify(withOutcome && Buffer.byteLength(JSON.stringify(withOutcome)) <= MAX_PAYLOAD_BYTES ? withOutcome : { r: runId, e: 1 });
          }
        } catch (error) {
          deps.onError?.(error);
        }
      }
    } finally {
      run.sending = false;
      if (run.endSent) outgoing.delete(runId);
    }
  }

  function schedule(runId: string, change: (run: Outgoing) => void) {
    let run = outgoing.get(runId);
    if (!run) {
      run = { pending: '', seq: 0, ended: false, endSent: false, sending: false };
      outgoing.set(runId, run);
    }
    if (run.ended) return;
    change(run);
    if (run.sending) return;
    const work = pump(runId, run);
    sending.add(work);
    void work.finally(() => sending.delete(work));
  }

  function receive(raw: string) {
    let payload: z.infer<typeof PayloadSchema>;
    try {
      payload = PayloadSchema.parse(JSON.parse(raw));
    } catch {
      return;
    }
    if ('e' in payload) {
      received.delete(payload.r);
      local.end(payload.r, payload.o);
      return;
    }
    const last = received.get(payload.r) ?? 0;
    if (last === 'hole') return;
    if (payload.s !== last + 1) {
      received.set(payload.r, 'hole');
      return;
    }
    received.set(payload.r, payload.s);
    // Runs whose end never came (their worker died) must not pile up; a forgotten run just shows no more pieces.
    if (received.size > capacity) received.delete(received.keys().next().value!);
    local.append(payload.r, payload.t);
  }

  async function flushed() {
    while (sending.size > 0) await Promise.allSettled([...sending]);
  }

  return {
    append: (runId, text) => {
      if (text !== '') schedule(runId, (run) => (run.pending += text));
    },
    end: (runId, outcome) =>
      schedule(runId, (run) => {
        run.ended = true;
        run.outcome = outcome;
      }),
    follow: (runId, afterSeq, listener) => local.follow(runId, afterSeq, listener),
    async listen() {
      unlisten ??= await deps.sql.listen(RUN_DELTAS_CHANNEL, receive);
    },
    flushed,
    async close() {
      await flushed();
      await unlisten?.();
      unlisten = undefined;
    },
  };
}
