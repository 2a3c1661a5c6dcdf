/**
 * Chat benchmarks (issue 5). Kesher runs as its own process(es) on the real Postgres and is driven over
 * real HTTP, as a browser would: post the message with its run (one call), open the SSE stream.
 *
 * The main figures use Kesher's one-process composition (embedded.main: API, projector, relay and ai-runner
 * in one Node process) with its read models and events on Postgres (DATABASE_URL) and the in-process bus:
 * the production-like default of a single server. Timings start when the client starts the POST of the
 * message with its run and end when the client reads the first `delta` (ttft) or the `completed` event
 * (run complete), so each includes both HTTP requests of a turn.
 *
 * "20 concurrent conversations" is measured as people hold them: 20 conversations open at once, each
 * asking again a moment (THINK_MS, 1 s) after its answer. The closed loop with no pause is reported too
 * (`saturated_…`): there 20 turns are always in flight on two cores, so it measures throughput and
 * queueing rather than the latency one person feels. Variants (when a Kafka broker answers): the same process on
 * Kafka, and the production topology (api, projector, relay and workers as four processes on Kafka),
 * where the answer's pieces reach the API through Postgres LISTEN/NOTIFY.
 *
 *   make bench-chat                  all of it, into bench-results/chat.json
 *   npx tsx ops/bench/chat.bench.ts ttft overhead visitors long widget variants    a subset (bench-results/chat-partial-….json)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { limits } from '@kesher/contracts';
import { loadDocuments, loadQuestions } from '@kesher/services/knowledge/eval/retrieval-eval';
import { kafkaAvailability, kafkaBrokers } from '@kesher/services/testing/kafka';
import { createTestDatabase } from '@kesher/services/testing/test-database';
import type { StatementTally } from '@kesher/services/platform/sql/statement-tally';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { peakRssMb, percentile, repoRoot, round, writeResults } from './bench-kit.js';

const CONVERSATIONS = Number(process.env.BENCH_CHAT_CONVERSATIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_CHAT_ROUNDS ?? 10);
const VISITORS = Number(process.env.BENCH_CHAT_VISITORS ?? 200);
const VISITOR_MESSAGES = 5;
/** Questions in the one long conversation (its thread then holds about four events a question). */
const LONG_TURNS = Number(process.env.BENCH_CHAT_LONG_TURNS ?? 400);
const FIRST_TOKEN_DELAY_MS = Number(process.env.BENCH_CHAT_FIRST_TOKEN_DELAY_MS ?? 200);
/** The paced variant: how long each conversation waits after an answer before asking again. */
const THINK_MS = Number(process.env.BENCH_CHAT_THINK_MS ?? 1000);

type Topology = 'one-process' | 'split';

interface Kesher {
  base: string;
  /** What the processes printed (for a failure's report). */
  output(): string;
  /** Transactions the database has committed so far (each autocommit statement is one). */
  transactions(): Promise<number>;
  /** Starts counting the first process's statements (statement-tally.ts); `stop` resolves to what it counted. */
  tallyStatements(): { stop(): Promise<StatementTally> };
  /** The process whose memory is reported (the one-process server, or the API of the split topology). */
  pid: number;
  /** Kesher's database (the event log is read for the overhead's breakdown). */
  dbUrl: string;
  stop(): Promise<void>;
}

/** A port nobody listens on right now (asked of the OS, so parallel test runs do not collide). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function spawnMain(main: string, env: Record<string, string>, output: string[]): ChildProcess {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of every Kesher process (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', join(repoRoot, `services/src/main/${main}.main.ts`)],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d) => output.push(`[${main}] ${d}`));
  child.stderr!.on('data', (d) => output.push(`[${main}] ${d}`));
  return child;
}

/** Starts Kesher on a fresh database; resolves once the API answers. */
async function startKesher(topology: Topology, extraEnv: Record<string, string> = {}): Promise<Kesher> {
  const db = await createTestDatabase('kesher_bench_chat');
  const dataDir = mkdtempSync(join(tmpdir(), 'kesher-bench-chat-'));
  const port = await freePort();
  const env = {
    DATABASE_URL: db.url,
    PORT: String(port),
    METRICS_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    SQL_STATEMENT_TALLY: join(dataDir, 'statements'),
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-42',
    RATE_LIMIT_PER_MINUTE: '100000000',
    // Every account is on the free plan (100 messages a month); the benchmark sends thousands.
    PLAN_FREE_MESSAGES_PER_MONTH: '100000000',
    // …and may keep 5 files; the benchmark's assistant learns the 13 documents of the labelled corpus.
    PLAN_FREE_MAX_FILES: '1000',
    // The 200 visitors all come from this one address: lift the public chat's per-address/link limits.
    PUBLIC_CHAT_VISITOR_PER_MINUTE: '100000000',
    PUBLIC_CHAT_ADDRESS_PER_MINUTE: '100000000',
    PUBLIC_CHAT_LINK_PER_MINUTE: '100000000',
    // …and each starts a conversation: lift the conversation starts per address (20 an hour) too.
    PUBLIC_CHAT_THREADS_PER_ADDRESS_PER_HOUR: '100000000',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  const output: string[] = [];
  // Only the projector serves /metrics on METRICS_PORT; the API would open the same operator port.
  const { METRICS_PORT: metricsPort, ...apiEnv } = env;
  const children =
    topology === 'one-process'
      ? [spawnMain('embedded', apiEnv, output)]
      : ['api', 'projector', 'relay', 'workers'].map((main) =>
          spawnMain(main, main === 'projector' ? { ...apiEnv, METRICS_PORT: metricsPort } : apiEnv, output),
        );
  const base = `http://127.0.0.1:${port}/api/v1`;
  const transactions = async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    // The statistics collector publishes with a small delay; ask for a fresh snapshot.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: string }>(
      `SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()`,
    );
    await client.end();
    return Number(rows[0]!.n);
  };
  const tallyStatements = () => {
    const pid = children[0]!.pid!;
    const file = `${join(dataDir, 'statements')}.${pid}`;
    rmSync(file, { force: true });
    process.kill(pid, 'SIGUSR2');
    return {
      async stop() {
        process.kill(pid, 'SIGUSR2');
        for (let i = 0; i < 200 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
        return JSON.parse(readFileSync(file, 'utf8')) as StatementTally;
      },
    };
  };
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) =>
        child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined,
      ),
    );
    // BENCH_KEEP_DB=1 leaves the database (its name in the output) for EXPLAIN of a slow statement.
    if (!process.env.BENCH_KEEP_DB) await db.drop();
    else console.error(`kept the database ${db.url}`);
  };
  // Up to 3 minutes: on a machine shared with a test suite the server took over a minute to listen.
  for (let i = 0; i < 1800 && children.every((child) => child.exitCode === null); i++) {
    if ((await fetch(`${base}/health`).catch(() => undefined))?.ok)
      return {
        base,
        pid: children[0]!.pid!,
        dbUrl: db.url,
        stop,
        transactions,
        tallyStatements,
        output: () => output.join(''),
      };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`Kesher did not start:\n${output.join('')}`);
}

class HttpError extends Error {}

async function call<T = Record<string, unknown>>(
  base: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown; form?: FormData } = {},
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body || init.form ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.form ?? (init.body ? JSON.stringify(init.body) : undefined),
  });
  if (!response.ok)
    throw new HttpError(`${init.method ?? 'POST'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Assistant {
  token: string;
  id: number;
  externalId: string;
  shareToken: string;
}

/** An owner with an assistant trained on the labelled corpus (13 English and Hebrew documents), so retrieval is real. */
async function assistantWithKnowledge(base: string): Promise<Assistant> {
  const session = await call<{ access_token: string }>(base, '/auth/register', {
    body: { email: `bench-${Date.now()}@example.com`, password: 'Bench-Passw0rd!' },
  });
  const token = session.access_token;
  const created = await call<{ assistant_id: number; openai_assistant_id: string }>(base, '/assistants/', {
    token,
    // Its 200 visitors share one address, and the daily allowance per visitor counts by address too: lifted to its most.
    body: {
      name: 'Policies',
      description: 'Answers from the handbook',
      instructions: 'Answer from the documents only.',
      visitor_daily_limit: limits.visitorDailyLimitMax,
      // The long conversation asks hundreds of questions in one thread (100 messages by default).
      chat_limit: 1_000_000,
    },
  });
  const documents = loadDocuments();
  for (const { document, bytes } of documents) {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'text/plain' }), document.replace('/', '-'));
    await call(base, `/assistants/${created.assistant_id}/upload_file`, { token, form });
  }
  for (let i = 0; ; i++) {
    const files = await call<{ status: string }[]>(base, `/assistants/${created.assistant_id}/files`, { token });
    if (files.length === documents.length && files.every((f) => f.status === 'ready')) break;
    // Generous: on Kafka the ingest worker's consumer group may still be joining.
    if (files.some((f) => f.status === 'failed') || i > 1800)
      throw new Error(`ingestion did not finish: ${JSON.stringify(files)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const share = await call<{ share_token: string }>(base, `/assistants/${created.assistant_id}/generate-share-token`, {
    token,
    method: 'POST',
  });
  return { token, id: created.assistant_id, externalId: created.openai_assistant_id, shareToken: share.share_token };
}

interface Turn {
  runId: string;
  /** Wall-clock marks (Date.now(), comparable with the database's timestamps on this machine). */
  marks: { started: number; runPosted: number; streamOpened: number; firstDelta?: number };
  /** From the start of the send (the POST of the message with its run) to the first `delta` read; undefined when none came. */
  ttftMs?: number;
  /** From the run's creation (its POST answered) to the first `delta`. */
  ttftFromRunMs?: number;
  completeMs: number;
  deltas: number;
  outcome: string;
}

/** Reads one SSE response to its end, noting when the first delta arrived. */
async function readStream(response: Response, onFirstDelta: () => void): Promise<{ outcome: string; deltas: number }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let deltas = 0;
  let outcome = 'cut';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { outcome, deltas };
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = /^event: (.*)$/m.exec(buffer.slice(0, end))?.[1];
      buffer = buffer.slice(end + 2);
      if (event === 'delta' && deltas++ === 0) onFirstDelta();
      else if (event && event !== 'delta') outcome = event;
    }
  }
}

/**
 * One question as the chat asks it: the message and the run in one POST (additional_messages, as the
 * owner chat and the embed send it), then the stream until the run ends.
 */
async function ask(
  base: string,
  who: { token?: string; sessionToken?: string },
  assistant: Assistant,
  threadId: string,
  question: string,
): Promise<Turn> {
  const visitor = who.sessionToken !== undefined;
  const prefix = visitor ? `/threads/public/${threadId}` : `/threads/${threadId}`;
  const session = visitor ? { session_token: who.sessionToken } : {};
  const started = performance.now();
  const marks: Turn['marks'] = { started: Date.now(), runPosted: 0, streamOpened: 0 };
  const run = await call<{ run_id: string; stream_grant?: string }>(base, `${prefix}/runs`, {
    token: who.token,
    body: {
      assistant_id: assistant.externalId,
      additional_messages: [{ role: 'user', content: question }],
      ...session,
    },
  });
  const runCreated = performance.now();
  marks.runPosted = Date.now();
  let firstDelta: number | undefined;
  const response = await fetch(
    `${base}${prefix}/runs/${run.run_id}/stream${visitor ? `?session_token=${who.sessionToken}` : ''}`,
    {
      // The owner's run opens on its grant, as the owner's chat does (no session or thread read first).
      headers: run.stream_grant
        ? { 'x-run-grant': run.stream_grant }
        : who.token
          ? { authorization: `Bearer ${who.token}` }
          : {},
    },
  );
  if (!response.ok) throw new HttpError(`stream: ${response.status}`);
  marks.streamOpened = Date.now();
  const { outcome, deltas } = await readStream(response, () => {
    firstDelta = performance.now();
    marks.firstDelta = Date.now();
  });
  const ended = performance.now();
  return {
    runId: run.run_id,
    marks,
    ttftMs: firstDelta === undefined ? undefined : firstDelta - started,
    ttftFromRunMs: firstDelta === undefined ? undefined : firstDelta - runCreated,
    completeMs: ended - started,
    deltas,
    outcome,
  };
}

const questions = loadQuestions().map((q) => q.question);

/**
 * `conversations` owner conversations at once, `ROUNDS` questions each after one warm-up round. Closed
 * loop (`thinkMs` 0): each asks again the moment its answer is complete, so `conversations` turns are
 * always in flight — the server runs flat out and the figures are mostly queueing. With `thinkMs`, each
 * waits that long before its next question, as people do; turns then overlap only by chance.
 */
async function concurrentConversations(
  base: string,
  assistant: Assistant,
  options: { conversations?: number; thinkMs?: number } = {},
) {
  const conversations = options.conversations ?? CONVERSATIONS;
  const threads = await Promise.all(
    Array.from(
      { length: conversations },
      async () =>
        (
          await call<{ thread_id: string }>(base, '/threads/', {
            token: assistant.token,
            body: { assistant_id: assistant.id },
          })
        ).thread_id,
    ),
  );
  const turns: Turn[] = [];
  await Promise.all(
    threads.map(async (threadId, c) => {
      // Paced conversations start spread over one think time, not all in the same millisecond.
      if (options.thinkMs) await new Promise((r) => setTimeout(r, (c * options.thinkMs!) / conversations));
      for (let round = -1; round < ROUNDS; round++) {
        const turn = await ask(
          base,
          { token: assistant.token },
          assistant,
          threadId,
          questions[(c + Math.max(round, 0) * conversations) % questions.length]!,
        );
        if (round >= 0) turns.push(turn);
        if (options.thinkMs) await new Promise((r) => setTimeout(r, options.thinkMs));
      }
    }),
  );
  return turns;
}

const sorted = (values: (number | undefined)[]) =>
  values.filter((v): v is number => v !== undefined).sort((a, b) => a - b);

function figures(turns: Turn[], prefix: string) {
  const ttft = sorted(turns.map((t) => t.ttftMs));
  const fromRun = sorted(turns.map((t) => t.ttftFromRunMs));
  const complete = sorted(turns.map((t) => t.completeMs));
  return {
    [`${prefix}ttft_ms_p50`]: round(percentile(ttft, 50)),
    [`${prefix}ttft_ms_p95`]: round(percentile(ttft, 95)),
    [`${prefix}ttft_from_run_created_ms_p50`]: round(percentile(fromRun, 50)),
    [`${prefix}ttft_from_run_created_ms_p95`]: round(percentile(fromRun, 95)),
    [`${prefix}run_complete_ms_p50`]: round(percentile(complete, 50)),
    [`${prefix}run_complete_ms_p95`]: round(percentile(complete, 95)),
    [`${prefix}turns`]: turns.length,
    [`${prefix}turns_without_deltas`]: turns.filter((t) => t.deltas === 0).length,
    [`${prefix}turns_not_completed`]: turns.filter((t) => t.outcome !== 'completed').length,
  };
}

async function builtinFigures() {
  const kesher = await startKesher('one-process');
  try {
    const assistant = await assistantWithKnowledge(kesher.base);
    const before = await kesher.transactions();
    const paced = await concurrentConversations(kesher.base, assistant, { thinkMs: THINK_MS });
    const transactions = (await kesher.transactions()) - before;
    return {
      ...figures(paced, ''),
      think_ms: THINK_MS,
      db_transactions_per_turn: round(transactions / (paced.length + CONVERSATIONS)),
      ...figures(await concurrentConversations(kesher.base, assistant), 'saturated_'),
      ...figures(await concurrentConversations(kesher.base, assistant, { conversations: 1 }), 'single_'),
    };
  } finally {
    await kesher.stop();
  }
}

/** CPU time (user + system) the process has used so far, from /proc (Linux); 0 where that cannot be read. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the line, counted in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Where the overhead goes, per turn of the paced run (p50 / p95 of each step, ms), from the client's
 * marks and the event log's own timestamps (one machine, one clock):
 *  - send_post: the POST of the message with its run, as the client waits for it;
 *  (The worker's start is recorded with its answer since it claims runs on their output, so the log no
 *  longer says when the worker took the run on: the step before the model is within worker_before_model.)
 *  - worker_before_model: the worker's own time from RunRequested to its first token, less the model's
 *    FIRST_TOKEN_DELAY_MS (relay, bus, thread read, assistant, retrieval, the HTTP call to the model);
 *  - delivery: from the worker's first token to the client reading it (hub, SSE, socket), with the
 *    stream's opening overlapping the model's time.
 */
async function overheadPhases(dbUrl: string, turns: Turn[]) {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ run_id: string; type: string; at: Date; first_token_ms: number | null }>(
      `SELECT data->>'runId' AS run_id, event_type AS type, created_at AS at, (data->>'firstTokenMs')::float AS first_token_ms
       FROM events WHERE event_type IN ('RunRequested', 'RunCompleted') AND data->>'runId' = ANY($1)`,
      [turns.map((t) => t.runId)],
    );
    const byRun = new Map<string, Record<string, { at: number; firstTokenMs: number | null }>>();
    for (const row of rows) {
      const events = byRun.get(row.run_id) ?? {};
      events[row.type] = { at: row.at.getTime(), firstTokenMs: row.first_token_ms };
      byRun.set(row.run_id, events);
    }
    const steps: Record<string, (number | undefined)[]> = {
      send_post: [],
      worker_before_model: [],
      delivery: [],
    };
    for (const turn of turns) {
      const events = byRun.get(turn.runId) ?? {};
      const requested = events.RunRequested?.at;
      const firstToken = events.RunCompleted?.firstTokenMs ?? undefined;
      steps.send_post!.push(turn.marks.runPosted - turn.marks.started);
      steps.worker_before_model!.push(firstToken !== undefined ? firstToken - FIRST_TOKEN_DELAY_MS : undefined);
      steps.delivery!.push(
        requested !== undefined && firstToken !== undefined && turn.marks.firstDelta
          ? turn.marks.firstDelta - (requested + firstToken)
          : undefined,
      );
    }
    return Object.fromEntries(
      Object.entries(steps).map(([step, values]) => {
        const ordered = sorted(values);
        return [step, { p50: round(percentile(ordered, 50)), p95: round(percentile(ordered, 95)) }];
      }),
    );
  } finally {
    await client.end();
  }
}

/**
 * The model: the local OpenAI stand-in in a process of its own (model-stand-in.child.ts), so that its
 * FIRST_TOKEN_DELAY_MS is not stretched by this process's twenty clients, whose event loop it would share.
 */
async function startModelStandIn(pieces: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'ops/bench/model-stand-in.child.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      FIRST_TOKEN_DELAY_MS: String(FIRST_TOKEN_DELAY_MS),
      STAND_IN_PIECES: JSON.stringify(pieces),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`the model stand-in exited (${code})`)));
  });
  const { baseURL, counter } = JSON.parse(line) as { baseURL: string; counter: string };
  return {
    baseURL,
    requests: async () => Number(await (await fetch(counter)).text()),
    close: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** The OpenAI adapter against the model stand-in, which takes FIRST_TOKEN_DELAY_MS to its first token. */
async function overheadFigures() {
  const words = 'Employees must report a suspected security incident to the security team within one hour [1].'.split(
    ' ',
  );
  const standIn = await startModelStandIn(words.map((w, i) => (i ? ` ${w}` : w)));
  const kesher = await startKesher('one-process', {
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: standIn.baseURL,
    OPENAI_MODEL: 'stand-in',
  });
  try {
    const assistant = await assistantWithKnowledge(kesher.base);
    const overhead = (turns: Turn[], prefix: string) => {
      const fromMessage = sorted(
        turns.map((t) => (t.ttftMs === undefined ? undefined : t.ttftMs - FIRST_TOKEN_DELAY_MS)),
      );
      const fromRun = sorted(
        turns.map((t) => (t.ttftFromRunMs === undefined ? undefined : t.ttftFromRunMs - FIRST_TOKEN_DELAY_MS)),
      );
      return {
        [`${prefix}overhead_ms_p50`]: round(percentile(fromMessage, 50)),
        [`${prefix}overhead_ms_p95`]: round(percentile(fromMessage, 95)),
        [`${prefix}overhead_from_run_created_ms_p50`]: round(percentile(fromRun, 50)),
        [`${prefix}overhead_from_run_created_ms_p95`]: round(percentile(fromRun, 95)),
      };
    };
    const cpuBefore = cpuMs(kesher.pid);
    const transactionsBefore = await kesher.transactions();
    const tally = kesher.tallyStatements();
    const paced = await concurrentConversations(kesher.base, assistant, { thinkMs: THINK_MS });
    const pacedTurns = paced.length + CONVERSATIONS;
    const counted = await tally.stop();
    // BENCH_TOP=<n> lists more of each kind of statement than the 15 it lists by default.
    const top = Number(process.env.BENCH_TOP ?? 15);
    const perTurn = (n: number) => round(n / pacedTurns);
    const work = {
      // What a turn costs whatever else the machine is doing (the latencies above depend on that too).
      overhead_server_cpu_ms_per_turn: round((cpuMs(kesher.pid) - cpuBefore) / pacedTurns),
      overhead_db_transactions_per_turn: round(((await kesher.transactions()) - transactionsBefore) / pacedTurns),
      // The same from the server's side, by statement: what each turn asks of the database, and where.
      overhead_db_statements_per_turn: {
        on_their_own: perTurn(counted.statements.filter((s) => !s.inTransaction).reduce((sum, s) => sum + s.count, 0)),
        transactions: perTurn(counted.transactions),
        inside_transactions: perTurn(
          counted.statements.filter((s) => s.inTransaction).reduce((sum, s) => sum + s.count, 0),
        ),
        top_on_their_own: counted.statements
          .filter((s) => !s.inTransaction)
          .slice(0, top)
          .map((s) => ({ per_turn: perTurn(s.count), statement: s.text.slice(0, 110) })),
        top_inside_transactions: counted.statements
          .filter((s) => s.inTransaction)
          .slice(0, top)
          .map((s) => ({ per_turn: perTurn(s.count), statement: s.text.slice(0, 110) })),
      },
    };
    const phases = await overheadPhases(kesher.dbUrl, paced);
    const saturated = await concurrentConversations(kesher.base, assistant);
    const single = await concurrentConversations(kesher.base, assistant, { conversations: 1 });
    return {
      ...overhead(paced, ''),
      overhead_phases_ms: phases,
      ...work,
      ...overhead(saturated, 'saturated_'),
      ...overhead(single, 'single_'),
      single_overhead_phases_ms: await overheadPhases(kesher.dbUrl, single),
      overhead_first_token_delay_ms: FIRST_TOKEN_DELAY_MS,
      overhead_stand_in_requests: await standIn.requests(),
      ...figures(paced, 'openai_'),
      ...figures(saturated, 'openai_saturated_'),
    };
  } finally {
    await kesher.stop();
    await standIn.close();
  }
}

/**
 * One conversation that goes on (a channel contact who writes for months keeps one thread): LONG_TURNS
 * questions one after the other on the built-in engine, the turns near its start against those near its
 * end. A turn reads its thread's stream on the API and in the worker, so a cost that grows with the
 * conversation shows here.
 */
async function longConversationFigures() {
  const kesher = await startKesher('one-process');
  try {
    const assistant = await assistantWithKnowledge(kesher.base);
    const { thread_id: threadId } = await call<{ thread_id: string }>(kesher.base, '/threads/', {
      token: assistant.token,
      body: { assistant_id: assistant.id },
    });
    const complete: number[] = [];
    for (let turn = 0; turn < LONG_TURNS; turn++) {
      const asked = await ask(
        kesher.base,
        { token: assistant.token },
        assistant,
        threadId,
        questions[turn % questions.length]!,
      );
      if (asked.outcome !== 'completed') throw new Error(`turn ${turn}: ${asked.outcome}`);
      complete.push(asked.completeMs);
    }
    // The first few turns warm the process up; the window is the same size at both ends.
    const window = Math.min(40, Math.floor(LONG_TURNS / 4));
    const early = sorted(complete.slice(5, 5 + window));
    const late = sorted(complete.slice(-window));
    return {
      long_conversation_turns: LONG_TURNS,
      long_conversation_early_run_complete_ms_p50: round(percentile(early, 50)),
      long_conversation_late_run_complete_ms_p50: round(percentile(late, 50)),
      long_conversation_late_over_early: round(percentile(late, 50) / percentile(early, 50), 2),
    };
  } finally {
    await kesher.stop();
  }
}

/** VISITORS visitors at once, each in their own public conversation (share link), VISITOR_MESSAGES questions each. */
async function visitorFigures() {
  const kesher = await startKesher('one-process');
  try {
    const assistant = await assistantWithKnowledge(kesher.base);
    const turns: Turn[] = [];
    const failures: string[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: VISITORS }, async (_, v) => {
        try {
          const thread = await call<{ thread_id: string; session_token: string }>(kesher.base, '/threads/public', {
            body: { assistant_id: assistant.id, share_token: assistant.shareToken, channel: 'embed' },
          });
          for (let m = 0; m < VISITOR_MESSAGES; m++) {
            const turn = await ask(
              kesher.base,
              { sessionToken: thread.session_token },
              assistant,
              thread.thread_id,
              questions[(v * VISITOR_MESSAGES + m) % questions.length]!,
            );
            turns.push(turn);
            if (turn.outcome !== 'completed') failures.push(`visitor ${v} message ${m}: ${turn.outcome}`);
          }
        } catch (error) {
          failures.push(`visitor ${v}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    if (failures.length)
      console.error(`visitor failures (first 5 of ${failures.length}):\n${failures.slice(0, 5).join('\n')}`);
    const complete = turns.map((t) => t.completeMs).sort((a, b) => a - b);
    return {
      visitors_200_errors: failures.length,
      visitors_200_peak_rss_mb: peakRssMb(kesher.pid),
      visitors_200_turns: turns.length,
      visitors_200_run_complete_ms_p50: round(percentile(complete, 50)),
      visitors_200_run_complete_ms_p95: round(percentile(complete, 95)),
      visitors_200_messages_per_second: round(turns.length / seconds),
      visitors_200_visitors: VISITORS,
    };
  } finally {
    await kesher.stop();
  }
}

/** The same 20 conversations on Kafka, in one process and as the production topology (LISTEN/NOTIFY for the pieces). */
async function variantFigures() {
  const kafka = await kafkaAvailability();
  if (!kafka.available) return { variants_not_run: `Kafka not available: ${kafka.reason}` };
  const results: Record<string, unknown> = {};
  for (const [topology, prefix] of [
    ['one-process', 'kafka_'],
    ['split', 'split_kafka_'],
  ] as const) {
    let kesher: Kesher | undefined;
    try {
      kesher = await startKesher(topology, { KAFKA_BROKERS: kafkaBrokers().join(',') });
      const assistant = await assistantWithKnowledge(kesher.base);
      Object.assign(
        results,
        figures(await concurrentConversations(kesher.base, assistant, { thinkMs: THINK_MS }), prefix),
      );
      Object.assign(results, figures(await concurrentConversations(kesher.base, assistant), `${prefix}saturated_`));
    } catch (error) {
      // A variant that cannot run is reported, not allowed to lose the main figures.
      results[`${prefix}error`] = error instanceof Error ? error.message.slice(0, 500) : String(error);
      console.error(`${prefix} failed${kesher ? `; the processes said:\n${kesher.output().slice(-5000)}` : ''}`);
    } finally {
      await kesher?.stop();
    }
  }
  return results;
}

/**
 * What a visitor's browser downloads: the widget loader a site owner pastes (widget.js), and every script
 * the embed page (/embed/{shareToken}, what the widget frames) runs on its first load, gzip -9, measured
 * in the system Chromium against the built client that Kesher serves.
 */
async function visitorBundleFigures() {
  const kesher = await startKesher('one-process');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    const origin = kesher.base.replace(/\/api\/v1$/, '');
    const loader = await fetch(`${origin}/widget.js`);
    if (!loader.ok)
      return { widget_not_measured: `GET /widget.js answered ${loader.status} (is the client built? make client)` };
    const session = await call<{ access_token: string }>(kesher.base, '/auth/register', {
      body: { email: `bench-embed-${Date.now()}@example.com`, password: 'Bench-Passw0rd!' },
    });
    const created = await call<{ assistant_id: number }>(kesher.base, '/assistants/', {
      token: session.access_token,
      body: { name: 'Embed', description: 'The embed page', instructions: 'Answer briefly.' },
    });
    const share = await call<{ share_token: string }>(
      kesher.base,
      `/assistants/${created.assistant_id}/generate-share-token`,
      { token: session.access_token, method: 'POST' },
    );
    const page = await browser.newPage();
    const scripts = new Map<string, number>();
    // Every body read is awaited before the sum: on a busy machine a read still pending was left out.
    const reads: Promise<void>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      reads.push(
        response
          .body()
          .then((body) => void scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length))
          .catch(() => {}),
      );
    });
    await page.goto(`${origin}/embed/${share.share_token}`, { waitUntil: 'networkidle' });
    await page.locator('.welcome').first().waitFor();
    await Promise.all(reads);
    const kb = (bytes: number) => round(bytes / 1024, 1);
    return {
      widget_loader_gzip_kb: kb(gzipSync(Buffer.from(await loader.arrayBuffer()), { level: 9 }).length),
      embed_chunk_gzip_kb: kb([...scripts.values()].reduce((a, b) => a + b, 0)),
      embed_scripts: [...scripts.keys()],
    };
  } finally {
    await browser.close();
    await kesher.stop();
  }
}

const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);
const results: Record<string, unknown> = {
  setup: {
    server:
      'embedded.main (API, projector, relay, ai-runner in one Node process) on Postgres, in-process bus; its own process, driven over HTTP',
    measured_from:
      'the start of the client POST of the message with its run (additional_messages, as the chat sends it), so each figure includes that POST and the stream GET',
    load:
      `the main figures: ${CONVERSATIONS} conversations open at once, each asking its next question ${THINK_MS} ms after its answer ends (people read before they ask again); ` +
      `saturated_: the same ${CONVERSATIONS} conversations in a closed loop with no pause, so ${CONVERSATIONS} turns are always in flight and the figures are mostly queueing (throughput); ` +
      'single_: one conversation alone',
    conversations: CONVERSATIONS,
    rounds: ROUNDS,
    knowledge: `${loadDocuments().length} documents of the labelled retrieval corpus (en + he), asked its labelled questions`,
  },
};
if (want('ttft')) Object.assign(results, await builtinFigures());
if (want('overhead')) Object.assign(results, await overheadFigures());
if (want('visitors')) Object.assign(results, await visitorFigures());
if (want('long')) Object.assign(results, await longConversationFigures());
if (want('widget')) Object.assign(results, await visitorBundleFigures());
if (want('variants')) Object.assign(results, await variantFigures());
const r = results as Record<string, number>;
results.goals = {
  ttft_ms_p50: { goal: '<= 50', met: r.ttft_ms_p50! <= 50 },
  ttft_ms_p95: { goal: '<= 150', met: r.ttft_ms_p95! <= 150 },
  run_complete_ms_p95: { goal: '<= 300', met: r.run_complete_ms_p95! <= 300 },
  overhead_ms_p95: { goal: '<= 30', met: r.overhead_ms_p95! <= 30 },
  visitors_200_errors: { goal: '0', met: r.visitors_200_errors === 0 },
  // #25 item 11: the widget loader stays within 5 KB and the embed page's whole first load within 20 KB.
  widget_loader_gzip_kb: { goal: '<= 5', met: r.widget_loader_gzip_kb! <= 5 },
  embed_chunk_gzip_kb: { goal: '<= 20', met: r.embed_chunk_gzip_kb! <= 20 },
};
results.command = 'make bench-chat';
writeResults(only.length ? `chat-partial-${only.join('-')}` : 'chat', results);
console.log(JSON.stringify(results, null, 2));
process.exit(0);
