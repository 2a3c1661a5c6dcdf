import { z } from 'zod';
import { sqlErrorInfo, type Sql } from '../../platform/sql/sql.port.js';
import {
  RunOutcomeSchema,
  type FollowOptions,
  type RunOutputEvent,
  type RunOutputReader,
  type RunOutputWriter,
} from './run-output.port.js';

/** One channel for every run; the payload is the run id alone, a wake-up: the rows are the data. */
export const RUN_OUTPUT_CHANNEL = 'kesher_run_output';
/** Between wake-ups a follower reads the table (and asks the thread for the outcome) this often anyway. */
export const SAFETY_TICK_MS = 1000;
/**
 * A run's rows are written at most this often: a model that says a token every few milliseconds costs a
 * row per interval, not per token (the first words and the end are never held back).
 */
export const BURST_INTERVAL_MS = 50;
/**
 * How long past a run's deadline a follower still waits for its outcome before saying it expired: the
 * worker expires its own run at the deadline (or records the answer it finished just before), and its
 * end row then arrives as usual; only a run nobody settled ends on the follower's word.
 */
export const DEADLINE_GRACE_MS = 2000;
/** Each chat turn runs this module's statements (a claim, a burst or two, an end, a follower's read): kept prepared. */
const PREPARED = { prepared: true } as const;
/** Rows read at a time: a client resuming a long answer gets it in pages. */
const PAGE = 500;

/**
 * The next rows' numbers are computed in the INSERT, so a run redelivered to another worker, or ended by the
 * sweep of another process, continues the same sequence; two writers racing on one number get a duplicate
 * key and the loser writes again. One statement writes one row, or a run's last burst and its end together;
 * the NOTIFY (`<run id> <newest seq>`) is sent when they commit.
 */
const WRITE = `WITH next AS (SELECT coalesce(max(seq), 0) AS seq FROM run_output WHERE run_id = $1),
  written AS (
    INSERT INTO run_output (run_id, seq, kind, text, outcome, created_at)
    SELECT $1, next.seq + r.n, r.kind, r.text, r.outcome, $5::timestamptz
    FROM next, unnest($2::text[], $3::text[], $4::jsonb[]) WITH ORDINALITY AS r(kind, text, outcome, n)
    RETURNING seq
  )
  SELECT pg_notify($6, $1 || ' ' || max(seq)), min(seq) AS seq FROM written`;

/**
 * A worker's claim on a run and its first words, in one statement. The claim is row 0 (followers read from
 * row 1), its text the claimant: the primary key lets one claimant in, and the same claimant asking again
 * (a retried write) finds its own row. The words go only with the claim's first writing: a claim found
 * already ours was written by a statement that wrote its words too (one whose answer was lost).
 */
const CLAIM = `WITH claim AS (
    INSERT INTO run_output (run_id, seq, kind, text, outcome, created_at) VALUES ($1, 0, 'claim', $2, NULL, $4::timestamptz)
    ON CONFLICT (run_id, seq) DO UPDATE SET text = run_output.text WHERE run_output.text = EXCLUDED.text
    RETURNING xmax = 0 AS inserted
  ),
  next AS (SELECT coalesce(max(seq), 0) AS seq FROM run_output WHERE run_id = $1),
  written AS (
    INSERT INTO run_output (run_id, seq, kind, text, outcome, created_at)
    SELECT $1, next.seq + 1, 'delta', $3, NULL, $4::timestamptz FROM claim, next WHERE claim.inserted AND $3 <> ''
    RETURNING seq
  )
  SELECT EXISTS (SELECT 1 FROM claim) AS claimed, (SELECT seq FROM written) AS seq,
    (SELECT pg_notify($5, $1 || ' ' || seq) FROM written) IS NOT NULL AS notified`;

const RowSchema = z.object({
  seq: z.number().int(),
  kind: z.enum(['delta', 'end']),
  text: z.string(),
  outcome: z.unknown(),
});
type Row = z.infer<typeof RowSchema>;

export interface SqlRunOutput extends RunOutputWriter, RunOutputReader {
  /** Resolves once everything handed to `append` and `end` so far is written (tests, shutdown). */
  flushed(): Promise<void>;
  /** Stops listening, after the writes under way. */
  close(): Promise<void>;
}

interface Outgoing {
  pending: string;
  pump?: Promise<void>;
  /** When the last row's write began (performance.now()). */
  lastWriteAt?: number;
  /** The worker is ending the run: what is queued goes with the end row, at once. */
  ending: boolean;
  /** Cuts short the wait for the next interval. */
  hurry?: () => void;
}

/**
 * A run's output in one table (`run_output`, chat.migrations.ts) on the database every process shares, on
 * Postgres and PGlite alike: the ai-runner writes the answer's bursts and its end, and whichever API process
 * a client reaches reads them from the table, from any point (Last-Event-ID). NOTIFY only wakes followers
 * up; one LISTEN per process serves all of them, and a lost wake-up costs at most a safety tick.
 */
export function createSqlRunOutput(deps: {
  sql: Sql;
  clock?: () => Date;
  tickMs?: number;
  burstIntervalMs?: number;
  onError?: (error: unknown) => void;
}): SqlRunOutput {
  const { sql } = deps;
  const burstIntervalMs = deps.burstIntervalMs ?? BURST_INTERVAL_MS;
  const clock = deps.clock ?? (() => new Date());
  const tickMs = deps.tickMs ?? SAFETY_TICK_MS;
  const report = (error: unknown) => deps.onError?.(error);

  // ---- writing ----
  const outgoing = new Map<string, Outgoing>();
  const writing = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>) => {
    writing.add(work);
    void work.finally(() => writing.delete(work)).catch(() => {});
    return work;
  };

  /** Writes `rows` (a burst, an end, or a last burst and its end) as the run's next rows, in one statement. */
  async function write(runId: string, rows: readonly Omit<Row, 'seq'>[]) {
    await writeNumbered(runId, async () => {
      const { rows: written } = await sql.query<{ seq: number }>(
        WRITE,
        [
          runId,
          rows.map((row) => row.kind),
          rows.map((row) => row.text),
          rows.map((row) => (row.outcome ? JSON.stringify(row.outcome) : null)),
          clock().toISOString(),
          RUN_OUTPUT_CHANNEL,
        ],
        PREPARED,
      );
      const first = written[0]?.seq;
      if (first !== undefined && first !== null)
        rows.forEach((row, i) => handOver(runId, { ...row, seq: Number(first) + i }));
    });
  }

  /**
   * Runs one write of the run's rows: a duplicate row number (another writer took it meanwhile) is written
   * again, numbered afresh; a wake-up heard for the run during the write waits for its end (handed rows).
   */
  async function writeNumbered<T>(runId: string, statement: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      writingRuns.set(runId, (writingRuns.get(runId) ?? 0) + 1);
      try {
        return await statement();
      } catch (error) {
        if (sqlErrorInfo(error).code !== '23505' || attempt >= 5) throw error;
      } finally {
        const left = writingRuns.get(runId)! - 1;
        if (left > 0) writingRuns.set(runId, left);
        else {
          writingRuns.delete(runId);
          // A wake-up heard meanwhile for a row this process did not hand over (another writer's) goes on now.
          const heard = heardWhileWriting.get(runId);
          heardWhileWriting.delete(runId);
          if (heard !== undefined) for (const wake of waiters.get(runId) ?? []) wake(heard);
        }
      }
    }
  }

  /**
   * One INSERT in flight per run, and one per interval at most: what the model says meanwhile waits, and
   * goes in the next row together. Once the run is ending, what is still queued waits for the end, and
   * both go in one statement.
   */
  function pump(runId: string, run: Outgoing) {
    if (run.pump) return;
    run.pump = track(
      (async () => {
        while (run.pending !== '' && !run.ending) {
          const wait = run.lastWriteAt === undefined ? 0 : run.lastWriteAt + burstIntervalMs - performance.now();
          if (wait > 0) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(go, wait);
              function go() {
                clearTimeout(timer);
                run.hurry = undefined;
                resolve();
              }
              run.hurry = go;
            });
          }
          if (run.ending) break;
          const text = run.pending;
          run.pending = '';
          run.lastWriteAt = performance.now();
          // A burst that cannot be written is lost to the live view only: the completed answer carries the whole text.
          await write(runId, [{ kind: 'delta', text, outcome: null }]).catch(report);
        }
      })().finally(() => {
        run.pump = undefined;
        if (run.pending !== '' && !run.ending) pump(runId, run);
      }),
    );
  }

  // ---- following ----
  /** Followers of this process by run id: a wake-up cache, nothing the other processes must agree with. */
  const waiters = new Map<string, Set<(seq?: number) => void>>();
  /**
   * Rows this process wrote, kept for its own followers of the run while they follow: a follower whose
   * next row is here takes it without reading it back (the one-process server's whole stream; in a split
   * topology the worker writes and the API reads). Only a copy of committed rows, so a follower that
   * finds a gap reads the table as before.
   */
  const handed = new Map<string, Row[]>();
  /**
   * Runs this process is writing a row of, and the newest row a NOTIFY announced for one meanwhile: the
   * NOTIFY of our own write may arrive before the write's answer does, and would send the follower to
   * the table for the row it is about to be handed. It waits for the write to finish instead.
   */
  const writingRuns = new Map<string, number>();
  const heardWhileWriting = new Map<string, number>();
  const HANDED_KEPT = 64;

  function handOver(runId: string, row: Row) {
    if (!waiters.has(runId)) return;
    const rows = handed.get(runId) ?? [];
    rows.push(row);
    if (rows.length > HANDED_KEPT) rows.shift();
    handed.set(runId, rows);
    for (const wake of waiters.get(runId) ?? []) wake(row.seq);
  }

  /** The rows this process wrote that follow on from `after` without a gap. */
  function handedAfter(runId: string, after: number): Row[] {
    const rows = handed.get(runId);
    if (!rows) return [];
    const start = rows.findIndex((row) => row.seq === after + 1);
    if (start < 0) return [];
    const run: Row[] = [];
    for (let i = start; i < rows.length && rows[i]!.seq === after + 1 + run.length; i++) run.push(rows[i]!);
    return run;
  }
  let listening: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let closed = false;

  function listen() {
    listening ??= sql
      .listen(RUN_OUTPUT_CHANNEL, (payload) => {
        const [runId, seqText] = payload.split(' ') as [string, string | undefined];
        const seq = seqText === undefined ? undefined : Number(seqText);
        if (seq !== undefined && writingRuns.has(runId)) {
          heardWhileWriting.set(runId, Math.max(seq, heardWhileWriting.get(runId) ?? 0));
          return;
        }
        for (const wake of waiters.get(runId) ?? []) wake(seq);
      })
      .then(
        (stop) => {
          unlisten = stop;
        },
        (error: unknown) => {
          // Followers still get everything, a tick late; the next follow tries to listen again.
          report(error);
          listening = undefined;
        },
      );
    return listening;
  }

  async function rowsAfter(runId: string, after: number): Promise<Row[]> {
    const { rows } = await sql.query(
      `SELECT seq, kind, text, outcome FROM run_output WHERE run_id = $1 AND seq > $2 AND kind <> 'claim' ORDER BY seq LIMIT ${PAGE}`,
      [runId, after],
      PREPARED,
    );
    return rows.map((row) => RowSchema.parse(row));
  }

  async function* follow({
    runId,
    afterSeq,
    deadlineAt,
    signal,
    recordedOutcome,
  }: FollowOptions): AsyncGenerator<RunOutputEvent> {
    if (!closed) await listen();
    let after = afterSeq;
    let woken = false;
    let rouse: (() => void) | undefined;
    /** `seq`: the row the wake-up is for; one this follower has (handed over, or read) changes nothing. */
    const wake = (seq?: number) => {
      if (seq !== undefined && seq <= after) return;
      woken = true;
      rouse?.();
    };
    const onAbort = () => wake();
    const nap = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          rouse = undefined;
          resolve();
        }
        rouse = done;
        if (woken || signal.aborted) done();
      });
    const mine = waiters.get(runId) ?? new Set();
    waiters.set(runId, mine.add(wake));
    signal.addEventListener('abort', onAbort);

    /** The end row's outcome; one that does not parse (written by another version?) defers to the thread. */
    const endOf = async (row: Row): Promise<RunOutputEvent> => {
      const parsed = RunOutcomeSchema.safeParse(row.outcome);
      if (parsed.success) return { kind: 'end', outcome: parsed.data };
      report(new Error(`run ${runId}: unreadable outcome in run_output: ${parsed.error.message}`));
      return { kind: 'end', outcome: (await recordedOutcome()) ?? { status: 'expired' } };
    };

    try {
      while (!signal.aborted) {
        // Reset before the read: a wake-up arriving during it means read again, not sleep.
        woken = false;
        const local = handedAfter(runId, after);
        const rows = local.length > 0 ? local : await rowsAfter(runId, after);
        for (const row of rows) {
          if (row.kind === 'end') {
            yield await endOf(row);
            return;
          }
          after = row.seq;
          yield { kind: 'delta', seq: row.seq, text: row.text };
        }
        if (rows.length === PAGE || woken) continue;
        const left = deadlineAt.getTime() + DEADLINE_GRACE_MS - clock().getTime();
        // Past the deadline the thread's word is final; a run with none there is expired (the sweep will say so).
        let outcome = left <= 0 ? ((await recordedOutcome()) ?? { status: 'expired' as const }) : undefined;
        if (!outcome) {
          await nap(Math.min(tickMs, left));
          if (woken || signal.aborted) continue;
          // A quiet tick: a lost wake-up, or a worker that died before its end row; the thread knows if it ended.
          outcome = await recordedOutcome();
          if (!outcome) continue;
        }
        // Ended: what the table holds still goes first, and its own end row, if written meanwhile, is the last word.
        for (
          let page = await rowsAfter(runId, after);
          page.length > 0 && !signal.aborted;
          page = await rowsAfter(runId, after)
        ) {
          for (const row of page) {
            if (row.kind === 'end') {
              yield await endOf(row);
              return;
            }
            after = row.seq;
            yield { kind: 'delta', seq: row.seq, text: row.text };
          }
        }
        if (!signal.aborted) yield { kind: 'end', outcome };
        return;
      }
    } finally {
      mine.delete(wake);
      if (mine.size === 0 && waiters.get(runId) === mine) {
        waiters.delete(runId);
        handed.delete(runId);
      }
      signal.removeEventListener('abort', onAbort);
    }
  }

  async function flushed() {
    while (writing.size > 0) await Promise.allSettled([...writing]);
  }

  return {
    async claim(runId, claimant, text) {
      const outcome = await track(
        writeNumbered(runId, async () => {
          const { rows } = await sql.query<{ claimed: boolean; seq: number | null }>(
            CLAIM,
            [runId, claimant, text, clock().toISOString(), RUN_OUTPUT_CHANNEL],
            PREPARED,
          );
          const row = rows[0];
          if (row?.seq !== undefined && row.seq !== null)
            handOver(runId, { seq: Number(row.seq), kind: 'delta', text, outcome: null });
          return row?.claimed === true;
        }),
      );
      // The next burst waits its interval after the first words, as after any burst.
      if (outcome && text !== '' && !outgoing.has(runId))
        outgoing.set(runId, { pending: '', ending: false, lastWriteAt: performance.now() });
      return outcome;
    },
    append(runId, text) {
      if (text === '') return;
      let run = outgoing.get(runId);
      if (!run) outgoing.set(runId, (run = { pending: '', ending: false }));
      run.pending += text;
      pump(runId, run);
    },
    end(runId, outcome) {
      return track(
        (async () => {
          const run = outgoing.get(runId);
          // The burst under way finishes first; what is queued behind it goes with the end row, the last.
          if (run) {
            run.ending = true;
            run.hurry?.();
          }
          while (run?.pump) await run.pump;
          outgoing.delete(runId);
          const last: Omit<Row, 'seq'>[] = run?.pending ? [{ kind: 'delta', text: run.pending, outcome: null }] : [];
          if (!outcome) {
            if (last.length > 0) await write(runId, last);
            return;
          }
          const end = { kind: 'end' as const, text: '', outcome };
          try {
            await write(runId, [...last, end]);
          } catch (error) {
            // The end must not be lost with the burst: it is what tells every follower the run is over.
            if (last.length === 0) throw error;
            report(error);
            await write(runId, [end]);
          }
        })().catch(report),
      );
    },
    async prune(before) {
      const { rows } = await sql.query<{ n: number }>(
        `WITH gone AS (DELETE FROM run_output WHERE created_at < $1::timestamptz RETURNING 1) SELECT count(*)::int AS n FROM gone`,
        [before.toISOString()],
      );
      return rows[0]?.n ?? 0;
    },
    follow,
    async claimed(runId) {
      const { rows } = await sql.query<{ claimed: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM run_output WHERE run_id = $1 AND seq = 0) AS claimed`,
        [runId],
      );
      return rows[0]?.claimed === true;
    },
    flushed,
    async close() {
      closed = true;
      await flushed();
      await listening;
      await unlisten?.();
      unlisten = undefined;
      listening = undefined;
    },
  };
}
