import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { createTestDatabase, createTestPglite, postgresAvailability } from '../../testing/test-database.js';
import type { FollowOptions, RunOutcome, RunOutputEvent } from './run-output.port.js';
import { createSqlRunOutput, type SqlRunOutput } from './sql.run-output.js';

/**
 * The writer stands for the ai-runner's process, the reader for an API replica. On Postgres they are two
 * pools on one database, as two processes are; PGlite has one backend, so there they share it.
 * The reader's safety tick is an hour unless a test says otherwise: only a wake-up can move it on.
 */
interface Replicas {
  writerSql: Sql;
  readerSql: Sql;
  teardown: () => Promise<void>;
}

const gate = await postgresAvailability();
const backends: [string, () => Promise<Replicas>][] = [
  [
    'PGlite',
    async () => {
      const sql = await createTestPglite();
      return { writerSql: sql, readerSql: sql, teardown: () => sql.close() };
    },
  ],
];
if (gate.available) {
  backends.push([
    'Postgres, writer and reader on two pools',
    async () => {
      const db = await createTestDatabase('kesher_run_output');
      const writerSql = createPgSql({ connectionString: db.url, applicationName: 'kesher-workers' });
      const readerSql = createPgSql({ connectionString: db.url, applicationName: 'kesher-api' });
      return {
        writerSql,
        readerSql,
        async teardown() {
          await writerSql.close();
          await readerSql.close();
          await db.drop();
        },
      };
    },
  ]);
}

const HOUR = 60 * 60 * 1000;
const newRun = () => `run_${randomBytes(12).toString('hex')}`;
const completed = (text: string): RunOutcome => ({
  status: 'completed',
  message: {
    id: `msg_${randomBytes(6).toString('hex')}`,
    text,
    sources: [{ fileId: 'file_1', filename: 'שעות.txt', sourceUrl: null, section: 'שעות' }],
    createdAt: 1_795_000_000,
  },
});

async function collect(events: AsyncGenerator<RunOutputEvent>) {
  const seen: RunOutputEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}
/** `sql` counting the statements whose text holds `part`. */
function counting(sql: Sql, part: string) {
  let n = 0;
  const counted: Sql = {
    ...sql,
    query: (text, params) => {
      if (text.includes(part)) n++;
      return sql.query(text, params);
    },
  };
  return { sql: counted, count: () => n };
}
const textOf = (events: RunOutputEvent[]) => events.flatMap((e) => (e.kind === 'delta' ? [e.text] : [])).join('');
const seqsOf = (events: RunOutputEvent[]) => events.flatMap((e) => (e.kind === 'delta' ? [e.seq] : []));

for (const [backend, open] of backends) {
  describe(`run output on ${backend}`, () => {
    let replicas: Replicas;
    let writer: SqlRunOutput;
    let reader: SqlRunOutput;
    const far = () => new Date(Date.now() + HOUR);
    const follow = (options: Partial<FollowOptions> & { runId: string }, from = reader) =>
      from.follow({
        afterSeq: 0,
        deadlineAt: far(),
        signal: new AbortController().signal,
        recordedOutcome: async () => undefined,
        ...options,
      });

    beforeAll(async () => {
      replicas = await open();
      writer = createSqlRunOutput({ sql: replicas.writerSql });
      reader = createSqlRunOutput({ sql: replicas.readerSql, tickMs: HOUR });
    });
    afterAll(async () => {
      await writer?.close();
      await reader?.close();
      await replicas?.teardown();
    });

    it('streams the pieces in order, in few bursts, then the end with its outcome, woken by NOTIFY alone', async () => {
      const runId = newRun();
      const following = collect(follow({ runId }));
      const pieces = Array.from({ length: 200 }, (_, i) => `word${i} `);
      for (const piece of pieces) writer.append(runId, piece);
      const outcome = completed(pieces.join(''));
      await writer.end(runId, outcome);
      const seen = await following;
      expect(textOf(seen)).toBe(pieces.join(''));
      const seqs = seqsOf(seen);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      // One INSERT in flight per run: what came meanwhile went in the next row, not one row per token.
      expect(seqs.length).toBeLessThan(10);
      expect(seen.at(-1)).toEqual({ kind: 'end', outcome });
      expect(seen.filter((e) => e.kind === 'end')).toHaveLength(1);
    });

    it("gives a follower in the writer's own process the rows it wrote without reading them back, and the end", async () => {
      // The one-process server: the ai-runner writes and the API follows in the same process.
      const reads = counting(replicas.writerSql, 'FROM run_output WHERE run_id = $1 AND seq >');
      const own = createSqlRunOutput({ sql: reads.sql, tickMs: HOUR });
      try {
        const runId = newRun();
        const following = collect(follow({ runId }, own));
        // The follower has made its first read (of nothing yet) once it waits for a wake-up.
        await expect.poll(() => reads.count(), { timeout: 30_000, interval: 5 }).toBe(1);
        const pieces = Array.from({ length: 40 }, (_, i) => `מילה${i} `);
        for (const piece of pieces) {
          own.append(runId, piece);
          await new Promise((resolve) => setImmediate(resolve));
        }
        const outcome = completed(pieces.join(''));
        await own.end(runId, outcome);
        const seen = await following;
        expect(textOf(seen)).toBe(pieces.join(''));
        expect(seqsOf(seen)).toEqual(seqsOf(seen).map((_, i) => i + 1));
        expect(seen.at(-1)).toEqual({ kind: 'end', outcome });
        expect(reads.count()).toBe(1);
        // Another process following the same run reads the same rows from the table.
        expect(await collect(follow({ runId }))).toEqual(seen);
      } finally {
        await own.close();
      }
    });

    it('writes a slow stream of words a row per interval, and what is queued with the end, at once, in one statement', async () => {
      // An interval no test waits out: only the end can let the queued words go.
      const writes = counting(replicas.writerSql, 'INSERT INTO run_output');
      const paced = createSqlRunOutput({ sql: writes.sql, burstIntervalMs: HOUR });
      const runId = newRun();
      const rows = async () =>
        (
          await replicas.readerSql.query<{ seq: number; kind: string; text: string }>(
            `SELECT seq, kind, text FROM run_output WHERE run_id = $1 ORDER BY seq`,
            [runId],
          )
        ).rows.map((row) => `${row.seq} ${row.kind} ${row.text}`);
      try {
        paced.append(runId, 'The first words go at once. ');
        await expect.poll(rows, { timeout: 30_000, interval: 5 }).toEqual(['1 delta The first words go at once. ']);
        paced.append(runId, 'The next ');
        await new Promise((resolve) => setImmediate(resolve));
        paced.append(runId, 'wait for the interval.');
        await paced.end(runId, { status: 'expired' });
        expect(await rows()).toEqual([
          '1 delta The first words go at once. ',
          '2 delta The next wait for the interval.',
          '3 end ',
        ]);
        // The first burst, then the last burst and the end together: a round trip a turn saved.
        expect(writes.count()).toBe(2);
        // A follower from elsewhere reads the same thing as the rows say.
        expect(textOf(await collect(follow({ runId })))).toBe(
          'The first words go at once. The next wait for the interval.',
        );
      } finally {
        await paced.close();
      }
    });

    it('still writes the end when the last burst and the end together cannot be written', async () => {
      const errors: unknown[] = [];
      let refused = 0;
      const flaky: Sql = {
        ...replicas.writerSql,
        query: (text, params) => {
          if (text.includes('INSERT INTO run_output') && (params?.[1] as unknown[]).length === 2 && refused++ === 0)
            return Promise.reject(new Error('connection lost mid-statement'));
          return replicas.writerSql.query(text, params);
        },
      };
      const paced = createSqlRunOutput({ sql: flaky, burstIntervalMs: HOUR, onError: (e) => errors.push(e) });
      const runId = newRun();
      try {
        paced.append(runId, 'First. ');
        paced.append(runId, 'Queued.');
        const outcome = completed('First. Queued.');
        await paced.end(runId, outcome);
        expect(refused).toBe(1);
        expect(errors).toHaveLength(1);
        // The queued words are lost to the live view (the outcome carries the whole answer); the end is not.
        const seen = await collect(follow({ runId }));
        expect(seen.at(-1)).toEqual({ kind: 'end', outcome });
      } finally {
        await paced.close();
      }
    });

    it('gives a follower that comes after the end every row then the end, and resumes after the last id it has', async () => {
      const runId = newRun();
      for (const piece of ['One ', 'two ', 'three ', 'four']) {
        writer.append(runId, piece);
        await writer.flushed();
      }
      const outcome = completed('One two three four');
      await writer.end(runId, outcome);

      const late = await collect(follow({ runId }));
      expect(late).toEqual([
        { kind: 'delta', seq: 1, text: 'One ' },
        { kind: 'delta', seq: 2, text: 'two ' },
        { kind: 'delta', seq: 3, text: 'three ' },
        { kind: 'delta', seq: 4, text: 'four' },
        { kind: 'end', outcome },
      ]);
      const resumed = await collect(follow({ runId, afterSeq: 2 }));
      expect(resumed).toEqual(late.slice(2));
    });

    it('keeps runs apart, and carries a long Hebrew answer whole', async () => {
      const [a, b] = [newRun(), newRun()];
      const followingA = collect(follow({ runId: a }));
      const followingB = collect(follow({ runId: b }));
      const long = 'שלום עולם, זו תשובה ארוכה מאוד עם "מרכאות" ו\\לוכסנים\\ ואימוג׳י 🍞. '.repeat(400);
      const [endA, endB] = [completed(long), completed('short')];
      writer.append(a, long);
      writer.append(b, 'short');
      await writer.end(b, endB);
      await writer.end(a, endA);
      const [seenA, seenB] = await Promise.all([followingA, followingB]);
      expect(textOf(seenA)).toBe(long);
      expect(seenA.at(-1)).toEqual({ kind: 'end', outcome: endA });
      expect(textOf(seenB)).toBe('short');
      expect(seenB.at(-1)).toEqual({ kind: 'end', outcome: endB });
    });

    it('continues the sequence when another writer takes the run over (redelivery, the sweep of another process)', async () => {
      const runId = newRun();
      const other = createSqlRunOutput({ sql: replicas.readerSql });
      try {
        writer.append(runId, 'first worker. ');
        await writer.flushed();
        other.append(runId, 'second worker.');
        await other.end(runId, {
          status: 'failed',
          error: 'The assistant could not answer right now. Please try again.',
        });
        // Both at once: one loses the race on a number and writes again.
        const raced = newRun();
        const pieces = Array.from({ length: 20 }, (_, i) => `p${i};`);
        pieces.forEach((piece, i) => (i % 2 ? writer : other).append(raced, piece));
        await Promise.all([writer.flushed(), other.flushed()]);
        await writer.end(raced, { status: 'expired' });
        const racedSeen = await collect(follow({ runId: raced }));
        expect(seqsOf(racedSeen)).toEqual(seqsOf(racedSeen).map((_, i) => i + 1));
        expect(textOf(racedSeen).split(';').filter(Boolean).sort()).toEqual(pieces.map((p) => p.slice(0, -1)).sort());
      } finally {
        await other.close();
      }
      expect(await collect(follow({ runId }))).toEqual([
        { kind: 'delta', seq: 1, text: 'first worker. ' },
        { kind: 'delta', seq: 2, text: 'second worker.' },
        {
          kind: 'end',
          outcome: { status: 'failed', error: 'The assistant could not answer right now. Please try again.' },
        },
      ]);
    });

    it('lets one claimant in: its first words go with the claim, another claimant writes nothing', async () => {
      const runId = newRun();
      const answered = completed('פתוח עד תשע.');
      const other = createSqlRunOutput({ sql: replicas.readerSql });
      try {
        expect(await reader.claimed(runId)).toBe(false);
        expect(await writer.claim(runId, 'worker-a', 'פתוח ')).toBe(true);
        expect(await reader.claimed(runId)).toBe(true);
        // Another worker handed the same request: refused, and its words are not written.
        expect(await other.claim(runId, 'worker-b', 'Open ')).toBe(false);
        // The same claimant asking again (a retried write whose first answer was lost) still holds it, and
        // its words are not written twice: the first statement wrote them with the claim.
        expect(await writer.claim(runId, 'worker-a', 'פתוח ')).toBe(true);
        writer.append(runId, 'עד תשע.');
        await writer.end(runId, answered);
      } finally {
        await other.close();
      }
      // Row 0 is the claim: a follower never sees it, from the start or resuming after any id.
      expect(await collect(follow({ runId }))).toEqual([
        { kind: 'delta', seq: 1, text: 'פתוח ' },
        { kind: 'delta', seq: 2, text: 'עד תשע.' },
        { kind: 'end', outcome: answered },
      ]);
      expect(await collect(follow({ runId, afterSeq: 1 }))).toHaveLength(2);
      // A claim without words writes none; the run's output then starts at 1 all the same.
      const quiet = newRun();
      expect(await writer.claim(quiet, 'worker-a', '')).toBe(true);
      await writer.end(quiet, { status: 'failed', error: 'There is no message to answer.' });
      expect(await collect(follow({ runId: quiet }))).toEqual([
        { kind: 'end', outcome: { status: 'failed', error: 'There is no message to answer.' } },
      ]);
    });

    it('lets exactly one of many claimants racing on a run in, and writes only its words', async () => {
      const others = Array.from({ length: 4 }, () => createSqlRunOutput({ sql: replicas.readerSql }));
      const claimants = [writer, ...others];
      try {
        for (let round = 0; round < 10; round++) {
          const runId = newRun();
          const won = await Promise.all(claimants.map((c, i) => c.claim(runId, `worker-${i}`, `from ${i}. `)));
          expect(won.filter(Boolean)).toHaveLength(1);
          const winner = won.indexOf(true);
          await claimants[winner]!.end(runId, { status: 'expired' });
          expect(await collect(follow({ runId }))).toEqual([
            { kind: 'delta', seq: 1, text: `from ${winner}. ` },
            { kind: 'end', outcome: { status: 'expired' } },
          ]);
        }
      } finally {
        await Promise.all(others.map((o) => o.close()));
      }
    });

    it("ends a run whose worker died before its end row with the thread's recorded outcome, asked on the safety tick", async () => {
      const runId = newRun();
      const ticking = createSqlRunOutput({ sql: replicas.readerSql, tickMs: 20 });
      let asked = 0;
      let recorded: RunOutcome | undefined;
      try {
        const following = collect(
          follow(
            {
              runId,
              recordedOutcome: async () => {
                asked++;
                return recorded;
              },
            },
            ticking,
          ),
        );
        writer.append(runId, 'Half an ans');
        // The worker recorded nothing for the stream's end (end without an outcome writes no end row).
        await writer.end(runId, undefined);
        await expect.poll(() => asked, { timeout: 30_000, interval: 5 }).toBeGreaterThan(1);
        recorded = { status: 'expired' };
        const seen = await following;
        expect(seen).toEqual([
          { kind: 'delta', seq: 1, text: 'Half an ans' },
          { kind: 'end', outcome: { status: 'expired' } },
        ]);
      } finally {
        await ticking.close();
      }
    });

    it('past the deadline and its grace asks the thread once more and, with no outcome there, ends as expired', async () => {
      let now = new Date('2026-11-27T12:00:00Z');
      const clocked = createSqlRunOutput({ sql: replicas.readerSql, clock: () => now, tickMs: HOUR });
      const runId = newRun();
      const asked: Date[] = [];
      try {
        writer.append(runId, 'Still thinking');
        await writer.flushed();
        now = new Date('2026-11-27T12:01:00Z');
        const seen = await collect(
          follow(
            {
              runId,
              deadlineAt: new Date('2026-11-27T12:00:45Z'),
              recordedOutcome: async () => {
                asked.push(now);
                return undefined;
              },
            },
            clocked,
          ),
        );
        expect(asked).toHaveLength(1);
        expect(seen).toEqual([
          { kind: 'delta', seq: 1, text: 'Still thinking' },
          { kind: 'end', outcome: { status: 'expired' } },
        ]);

        // Just past the deadline the worker's own end row is still awaited: it may have finished just in time.
        const justInTime = newRun();
        now = new Date('2026-11-27T12:00:46Z');
        const waiting = collect(follow({ runId: justInTime, deadlineAt: new Date('2026-11-27T12:00:45Z') }, clocked));
        writer.append(justInTime, 'Done in time.');
        await writer.end(justInTime, completed('Done in time.'));
        expect((await waiting).at(-1)).toMatchObject({ kind: 'end', outcome: { status: 'completed' } });
        now = new Date('2026-11-27T12:01:00Z');

        // With an outcome on the thread at the deadline, that is the end.
        const failedRun = newRun();
        const failed: RunOutcome = { status: 'failed', error: 'This conversation was deleted.' };
        const seenFailed = await collect(
          follow(
            { runId: failedRun, deadlineAt: new Date('2026-11-27T12:00:45Z'), recordedOutcome: async () => failed },
            clocked,
          ),
        );
        expect(seenFailed).toEqual([{ kind: 'end', outcome: failed }]);
      } finally {
        await clocked.close();
        await writer.end(runId, undefined);
      }
    });

    it('stops at once when the client goes away', async () => {
      const runId = newRun();
      const controller = new AbortController();
      const stream = follow({ runId, signal: controller.signal });
      writer.append(runId, 'Hello');
      const first = await stream.next();
      expect(first.value).toEqual({ kind: 'delta', seq: 1, text: 'Hello' });
      const next = stream.next();
      controller.abort();
      // The reader's tick is an hour: only the abort can end this wait.
      expect(await next).toEqual({ done: true, value: undefined });
      await writer.end(runId, undefined);
    });

    it('deletes the output of runs older than the retention, by the clock that wrote them', async () => {
      let now = new Date('2026-11-27T10:00:00Z');
      const clocked = createSqlRunOutput({ sql: replicas.writerSql, clock: () => now });
      const [old, recent] = [newRun(), newRun()];
      try {
        clocked.append(old, 'old answer');
        await clocked.end(old, completed('old answer'));
        now = new Date('2026-11-27T11:30:00Z');
        clocked.append(recent, 'recent answer');
        await clocked.end(recent, completed('recent answer'));
        const pruned = await clocked.prune(new Date(now.getTime() - HOUR));
        // Other tests' rows were written by the real clock, later than either cut.
        expect(pruned).toBe(2);
        const { rows } = await replicas.readerSql.query<{ run_id: string; n: number }>(
          `SELECT run_id, count(*)::int AS n FROM run_output WHERE run_id = ANY($1::text[]) GROUP BY run_id`,
          [[old, recent]],
        );
        expect(rows).toEqual([{ run_id: recent, n: 2 }]);
      } finally {
        await clocked.close();
      }
    });
  });
}

describe.skipIf(!gate.available)('run output on Postgres: a lost wake-up', () => {
  it('costs a safety tick, not the answer: a follower whose LISTEN connection was cut still gets every row', async () => {
    const db = await createTestDatabase('kesher_run_output_cut');
    const writerSql = createPgSql({ connectionString: db.url, applicationName: 'kesher-workers' });
    const readerSql = createPgSql({ connectionString: db.url, applicationName: 'kesher-api-cut' });
    const writer = createSqlRunOutput({ sql: writerSql });
    const reader = createSqlRunOutput({ sql: readerSql, tickMs: 50 });
    try {
      const followed = (runId: string) =>
        reader.follow({
          runId,
          afterSeq: 0,
          deadlineAt: new Date(Date.now() + HOUR),
          signal: new AbortController().signal,
          recordedOutcome: async () => undefined,
        });
      // A first run followed to its end: the reader listens from then on.
      const before = newRun();
      await writer.end(before, { status: 'expired' });
      expect(await collect(followed(before))).toEqual([{ kind: 'end', outcome: { status: 'expired' } }]);
      // Then its listening session is ended, as a restart or a network cut would.
      const runId = newRun();
      const stream = followed(runId);
      const first = stream.next();
      const { rows } = await writerSql.query<{ cut: boolean }>(
        `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'kesher-api-cut-listen'`,
      );
      expect(rows).toEqual([{ cut: true }]);
      writer.append(runId, 'Nobody hears this NOTIFY.');
      await writer.end(runId, { status: 'expired' });
      expect((await first).value).toEqual({ kind: 'delta', seq: 1, text: 'Nobody hears this NOTIFY.' });
      expect((await stream.next()).value).toEqual({ kind: 'end', outcome: { status: 'expired' } });
    } finally {
      await writer.close();
      await reader.close();
      await writerSql.close();
      await readerSql.close();
      await db.drop();
    }
  });
});

describe.skipIf(gate.available)(`run output on Postgres (not run: ${gate.reason})`, () => {
  it('needs Postgres', () => {});
});
