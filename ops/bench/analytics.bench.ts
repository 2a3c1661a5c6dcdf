/**
 * Analytics benchmarks (issue 13). One run on this machine against the real Postgres, in one process
 * (the `make start` composition on Postgres: API, projector). A log of ≥ 1,000,000 events — many owners,
 * 90 days of conversations with answers, feedback, referrals, tracked queries and refusals — is seeded with
 * bulk INSERTs of the stored rows (the append path has its own benchmark), then:
 *
 * - rebuild_eps: every analytics read model dropped and rebuilt from the first event in one pass over the
 *   log (rebuildTogether, as `npm run replay -- analytics` does; batch size BENCH_REBUILD_BATCH), log
 *   events per wall-clock second;
 * - dashboard_p95_ms / graphql_p95_ms: GET /api/v1/analytics/dashboard?days=90 and the same selection over
 *   GraphQL for the busiest owner, over HTTP, one request at a time;
 * - live_lag_ms_p99: a new conversation of that owner appended (its start and first message, through the
 *   event store) → the changed counter received on a GraphQL subscription over WebSocket;
 * - export_eps: `npm run export`'s exporter over the whole log (COPY, as it reads a Postgres log without an
 *   owner filter) into a counting sink (no disk).
 */
import { randomUUID } from 'node:crypto';
import { streamIds } from '@kesher/contracts';
import { analyticsProjections } from '@kesher/projections/analytics/analytics-projections';
import { exportEvents, sqlLogSource } from '@kesher/services/analytics/export/event-export';
import { createCopyLogReader } from '@kesher/services/analytics/export/copy-log-reader';
import { createSqlLogReader } from '@kesher/services/analytics/export/sql-log-reader';
import { subscribeGraphql } from '@kesher/services/analytics/testing/graphql-ws-client';
import { composeApi } from '@kesher/services/main/compose-api';
import { composePlatform } from '@kesher/services/main/compose-platform';
import { composeWorkers } from '@kesher/services/main/compose-workers';
import { loadConfig } from '@kesher/services/platform/config/config';
import { rebuildTogether } from '@kesher/services/platform/projections/rebuild-together';
import { createTestDatabase } from '@kesher/services/testing/test-database';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakRssMb, percentile, round, writeResults } from './bench-kit.js';

const CONVERSATIONS = Number(process.env.BENCH_ANALYTICS_CONVERSATIONS ?? 64_000);
const OWNERS = Number(process.env.BENCH_ANALYTICS_OWNERS ?? 300);
const DAYS = 90;
const REBUILD_BATCH = Number(process.env.BENCH_REBUILD_BATCH ?? 20_000);
const REQUESTS = Number(process.env.BENCH_ANALYTICS_REQUESTS ?? 300);
const LIVE_EVENTS = Number(process.env.BENCH_LIVE_EVENTS ?? 200);

/** A small deterministic generator, so every run seeds the same log. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(13);
const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;

const QUESTIONS = {
  en: [
    'How much does the sourdough bread cost?',
    'Do you deliver to Haifa on Fridays?',
    'What are your opening hours?',
    'Can I order a birthday cake?',
    'Do you have gluten free cookies?',
    'Is parking available near the shop?',
    'What is the price of the catering menu?',
    'Can I return a damaged order?',
  ],
  he: [
    'כמה עולה לחם מחמצת?',
    'האם יש משלוחים לחיפה ביום שישי?',
    'מה שעות הפתיחה של החנות?',
    'אפשר להזמין עוגת יום הולדת?',
    'יש לכם עוגיות ללא גלוטן?',
    'מה המחיר של תפריט הקייטרינג?',
    'אפשר להחזיר הזמנה פגומה?',
  ],
};
const ANSWER = {
  en: 'Thanks for asking! Our bakery answers from the menu: fresh bread every morning, delivery on weekdays.',
  he: 'תודה ששאלתם! המאפייה אופה לחם טרי בכל בוקר ויש משלוחים בימי חול.',
};
const URLS = [
  'https://bakery.example.com/pricing',
  'https://bakery.example.com/shop/cakes',
  'https://bakery.example.com/help/returns',
  'https://bakery.example.com/about',
  'https://bakery.example.com/blog/sourdough',
  'https://bakery.example.com/docs/catering-guide',
];
const CHANNELS = ['app', 'public_link', 'public_link', 'embed', 'embed', 'telegram'] as const;

interface Row {
  stream: string;
  revision: number;
  type: string;
  data: unknown;
  at: Date;
}

const metadata = (at: Date) => ({
  eventId: randomUUID(),
  correlationId: randomUUID(),
  causationId: randomUUID(),
  actor: { kind: 'system', id: 'bench' },
  timestamp: at.toISOString(),
  schemaVersion: 1,
});

/** One conversation's events, as the thread decider records them. */
function conversation(ownerId: string, assistantId: string, start: Date, n: number): Row[] {
  const threadId = `thread_bench${n}`;
  const stream = streamIds.thread(threadId);
  const channel = pick(CHANNELS);
  const visitor = channel !== 'app';
  const language = rand() < 0.5 ? 'he' : 'en';
  const rows: Row[] = [];
  let revision = 0;
  let t = start.getTime();
  const push = (type: string, data: unknown) =>
    rows.push({ stream, revision: revision++, type, data, at: new Date((t += 1000 + Math.floor(rand() * 20_000))) });
  push('ThreadStarted', {
    threadId,
    assistantId,
    assistantOwnerId: ownerId,
    ownerId: visitor ? null : ownerId,
    visitorSessionHash: visitor ? (n.toString(16).padStart(8, '0') + 'a'.repeat(56)).slice(0, 64) : null,
    isPublic: visitor,
    channel,
  });
  const turns = 1 + Math.floor(rand() * 5);
  let lastAnswer = '';
  for (let turn = 0; turn < turns; turn++) {
    const runId = `run_b${n}t${turn}`;
    lastAnswer = `msg_b${n}a${turn}`;
    push('MessagePosted', {
      messageId: `msg_b${n}q${turn}`,
      threadId,
      role: 'user',
      text: pick(QUESTIONS[language]),
      channel,
      language,
      runId: null,
    });
    push('RunRequested', { runId, threadId, assistantId, deadlineAt: new Date(t + 45_000).toISOString() });
    push('RunStarted', { runId, threadId, provider: 'builtin' });
    const responseMs = Math.round(150 * Math.exp(rand() * 3.2));
    const referredUrl = rand() < 0.15 ? pick(URLS) : null;
    push('MessagePosted', {
      messageId: lastAnswer,
      threadId,
      role: 'assistant',
      text: ANSWER[language] + (referredUrl ? `\n[REDIRECT: ${referredUrl}]` : ''),
      channel,
      language,
      runId,
    });
    push('RunCompleted', {
      runId,
      threadId,
      messageId: lastAnswer,
      responseMs,
      firstTokenMs: Math.round(responseMs * 0.4),
      promptTokens: 400,
      completionTokens: 60,
      sources: [],
      referredUrl,
    });
  }
  if (rand() < 0.2) {
    push('FeedbackGiven', {
      messageId: lastAnswer,
      threadId,
      assistantId,
      rating: rand() < 0.75 ? 'like' : 'dislike',
      comment: null,
      authorKey: visitor ? `visitor:${n}` : `account:${ownerId}`,
      source: 'chat',
      isPublic: visitor,
    });
  }
  return rows;
}

/**
 * CPU seconds used so far by the Postgres backends of one application name (read from /proc: the bench
 * runs beside its Postgres). On a shared machine wall-clock rates fall with everyone else's load; CPU
 * time says what the work itself costs. Backends that ended meanwhile are not counted (the pools keep
 * theirs while busy).
 */
async function backendCpu(
  sql: { query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }> },
  applicationName: string,
): Promise<Map<number, number>> {
  const { rows } = await sql.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
    [applicationName],
  );
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // Not on this machine, or already gone.
    }
  }
  return ticks;
}
const cpuSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);
const nodeCpuSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};

async function main() {
  const db = await createTestDatabase('kesher_bench_analytics');
  const dataDir = mkdtempSync(join(tmpdir(), 'kesher-bench-analytics-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-42',
    RATE_LIMIT_PER_MINUTE: '100000000',
    PLAN_FREE_MAX_ASSISTANTS: '3',
    NODE_ENV: 'production',
    PORT: '0',
  });
  const platform = await composePlatform(config, { applicationName: 'kesher-bench-analytics' });
  await platform.projector.start();
  const workers = await composeWorkers(platform, {});
  const { app } = await composeApi({
    platform,
    blobs: workers.blobs,
    knowledge: workers.knowledgeReads,
    runOutput: workers.runOutput,
    readModels: platform.projector.progress,
    clientDistDir: join(dataDir, 'none'),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const api = `${address}/api/v1`;

  // The busiest owner is a real account with three real assistants; the other owners exist only in the log.
  const registered = (await (
    await fetch(`${api}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'busy@bench.example', password: 'Str0ng-Passw0rd!' }),
    })
  ).json()) as {
    access_token: string;
    user: { uid: string };
  };
  const authorization = `Bearer ${registered.access_token}`;
  const busy = registered.user.uid;
  for (const name of ['Bakery', 'Catering', 'Deliveries']) {
    const created = await fetch(`${api}/assistants/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ name, description: name, instructions: 'Answer' }),
    });
    if (created.status !== 201) throw new Error(`assistant: ${created.status} ${await created.text()}`);
  }
  await platform.projector.waitForPosition(await platform.eventStore.headPosition(), { timeoutMs: 30_000 });
  const busyAssistants = (
    await platform.sql.query<{ id: string }>(`SELECT id FROM assistants WHERE owner_id = $1`, [busy])
  ).rows.map((r) => r.id);
  await platform.projector.stop();

  // Seed: conversations spread over 90 days (oldest first), a tenth of them the busy owner's.
  const seedStarted = performance.now();
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const starts = Array.from(
    { length: CONVERSATIONS },
    () => today - Math.floor(rand() * DAYS) * 86_400_000 + Math.floor(rand() * 20 * 3_600_000),
  ).sort((a, b) => a - b);
  const others = Array.from({ length: OWNERS - 1 }, (_, i) => ({
    owner: `owner-bench-${i}`,
    assistants: [`asst-bench-${i}-a`, `asst-bench-${i}-b`],
  }));
  let seeded = 0;
  let buffer: Row[] = [];
  const flush = async () => {
    if (buffer.length === 0) return;
    await platform.sql.query(
      `INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, created_at)
       SELECT s, p, (m->>'eventId')::uuid, t, d, m, c FROM unnest($1::text[], $2::bigint[], $3::text[], $4::jsonb[], $5::jsonb[], $6::timestamptz[]) AS r(s, p, t, d, m, c)`,
      [
        buffer.map((r) => r.stream),
        buffer.map((r) => r.revision),
        buffer.map((r) => r.type),
        buffer.map((r) => JSON.stringify(r.data)),
        buffer.map((r) => JSON.stringify(metadata(r.at))),
        buffer.map((r) => r.at.toISOString()),
      ],
    );
    seeded += buffer.length;
    buffer = [];
  };
  for (let n = 0; n < starts.length; n++) {
    const own = rand() < 0.1 ? { owner: busy, assistants: busyAssistants } : pick(others);
    buffer.push(...conversation(own.owner, pick(own.assistants), new Date(starts[n]!), n));
    if (n % 50 === 0 && rand() < 0.5) {
      const queryId = `query_bench${n}`;
      buffer.push({
        stream: streamIds.trackedQuery(queryId),
        revision: 0,
        type: 'QueryTracked',
        data: {
          queryId,
          ownerId: own.owner,
          assistantId: null,
          query: 'opening hours from the CRM',
          responseTimeMs: 300,
          success: true,
          source: 'crm',
        },
        at: new Date(starts[n]!),
      });
    }
    if (n % 100 === 0) {
      const violationId = randomUUID();
      buffer.push({
        stream: streamIds.limitViolation(violationId),
        revision: 0,
        type: 'LimitViolated',
        data: {
          violationId,
          ownerId: own.owner,
          kind: 'monthly_messages',
          limit: 100,
          used: 100,
          requested: null,
          assistantId: own.assistants[0],
          refused: 'visitor',
        },
        at: new Date(starts[n]!),
      });
    }
    if (buffer.length >= 10_000) await flush();
  }
  await flush();
  await platform.sql.query('ANALYZE events');
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const { rows: totalRows } = await platform.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM events`);
  const logEvents = Number(totalRows[0]!.n);
  console.log(`seeded ${seeded} events (${logEvents} in the log) in ${seedSeconds.toFixed(1)} s`);

  // Rebuild: every analytics read model dropped and computed again from the first event, in one pass.
  const rebuildPgBefore = await backendCpu(platform.sql, 'kesher-bench-analytics');
  const rebuildNodeBefore = process.cpuUsage();
  const rebuildStarted = performance.now();
  await rebuildTogether({
    eventStore: platform.eventStore,
    sql: platform.sql,
    projections: analyticsProjections,
    batchSize: REBUILD_BATCH,
  });
  const rebuildSeconds = (performance.now() - rebuildStarted) / 1000;
  const rebuildNodeCpu = nodeCpuSince(rebuildNodeBefore);
  const rebuildPgCpu = cpuSince(rebuildPgBefore, await backendCpu(platform.sql, 'kesher-bench-analytics'));
  console.log(`rebuilt the analytics read models over ${logEvents} events in ${rebuildSeconds.toFixed(1)} s`);

  // The other read models catch up too (as the projector would), so the API runs on a settled database.
  const catchUpStarted = performance.now();
  await platform.projector.start();
  if (!(await platform.projector.waitForPosition(await platform.eventStore.headPosition(), { timeoutMs: 1_800_000 })))
    throw new Error('catch-up did not finish');
  const catchUpSeconds = (performance.now() - catchUpStarted) / 1000;

  const time = async (work: () => Promise<void>) => {
    for (let i = 0; i < 20; i++) await work();
    const samples: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      await work();
      samples.push(performance.now() - started);
    }
    return samples.sort((a, b) => a - b);
  };
  let dashboardQueries = 0;
  const dashboard = await time(async () => {
    const response = await fetch(`${api}/analytics/dashboard?days=90`, { headers: { authorization } });
    const body = (await response.json()) as { data: { overview: { total_queries: number } } };
    dashboardQueries = body.data.overview.total_queries;
  });
  const selection = `{ dashboard(days: 90) { period { days start_date end_date } overview { total_conversations total_queries total_answers tracked_queries users new_users active_assistants total_assistants success_rate failed_runs expired_runs }
    response_time { samples current_ms avg_ms min_ms max_ms p50_ms p90_ms p95_ms p99_ms first_token { samples avg_ms min_ms max_ms p50_ms p95_ms } } feedback { positive negative total satisfaction_rate }
    channels { channel conversations queries } languages { he en other }
    trends { daily_queries { date queries } daily_response_times { date samples avg_response_time min_response_time max_response_time p95_response_time } daily_conversations { date conversations } } } }`;
  let graphqlQueries = 0;
  const graphql = await time(async () => {
    const response = await fetch(`${api}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query: selection }),
    });
    const body = (await response.json()) as { data: { dashboard: { overview: { total_queries: number } } } };
    graphqlQueries = body.data.dashboard.overview.total_queries;
  });
  if (graphqlQueries !== dashboardQueries)
    throw new Error(`GraphQL (${graphqlQueries}) and REST (${dashboardQueries}) disagree`);

  // Live lag: a new conversation (its start and first message) appended → its counter on the subscription.
  let lastConversations = 0;
  const arrivals = new Map<number, number>();
  const live = await subscribeGraphql(
    `${address.replace('http', 'ws')}/api/v1/graphql`,
    authorization,
    'subscription { live_counters { conversations } }',
    (message) => {
      const count = message.payload?.data?.live_counters?.conversations as number | undefined;
      if (message.type === 'next' && count !== undefined && !arrivals.has(count))
        arrivals.set(count, performance.now());
    },
  );
  const first = await live.next((m) => m.type === 'next');
  lastConversations = first.payload.data.live_counters.conversations;
  const lags: number[] = [];
  for (let i = 0; i < LIVE_EVENTS; i++) {
    const threadId = `thread_live${i}`;
    const started = performance.now();
    await platform.eventStore.appendToStream(
      streamIds.thread(threadId),
      [
        {
          type: 'ThreadStarted',
          data: {
            threadId,
            assistantId: busyAssistants[0],
            assistantOwnerId: busy,
            ownerId: busy,
            visitorSessionHash: null,
            isPublic: false,
            channel: 'app',
          },
          metadata: metadata(new Date()) as never,
        },
        // A conversation counts from its first message (empty threads are not conversations), so the
        // thread is appended with its first question, as the thread decider records a channel's.
        {
          type: 'MessagePosted',
          data: {
            messageId: `msg_live${i}`,
            threadId,
            role: 'user',
            text: 'Is the sourdough ready?',
            channel: 'app',
            language: 'en',
            runId: null,
          },
          metadata: metadata(new Date()) as never,
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const expected = lastConversations + 1;
    await live.next((m) => m.type === 'next' && m.payload.data.live_counters.conversations >= expected);
    lags.push(arrivals.get(expected)! - started);
    lastConversations = expected;
  }
  live.close();
  lags.sort((a, b) => a - b);

  // Export: the whole log, as `npm run export` writes it, into a sink that only counts bytes.
  let bytes = 0;
  const exportStarted = performance.now();
  const copy = createCopyLogReader(db.url);
  const exportNodeBefore = process.cpuUsage();
  const exported = await exportEvents(
    { source: sqlLogSource(createSqlLogReader(platform.sql)), copy, write: (chunk) => void (bytes += chunk.length) },
    {},
  );
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  const exportNodeCpu = nodeCpuSince(exportNodeBefore);
  // The export's own connections (application kesher-export) were opened for it: all their CPU is its.
  const exportPgCpu = cpuSince(new Map(), await backendCpu(platform.sql, 'kesher-export'));
  await copy.close();

  const results = {
    log_events: logEvents,
    owners: OWNERS,
    days: DAYS,
    busy_owner_queries_90_days: dashboardQueries,
    seed_seconds: round(seedSeconds),
    rebuild_eps: round(logEvents / rebuildSeconds),
    rebuild_seconds: round(rebuildSeconds),
    rebuild_read_models: analyticsProjections.length,
    // CPU the rebuild itself used (this process, and its Postgres backends), and the rate those costs
    // would allow on two otherwise idle cores (Node is one thread; Postgres works beside it).
    rebuild_node_cpu_seconds: round(rebuildNodeCpu),
    rebuild_postgres_cpu_seconds: round(rebuildPgCpu),
    rebuild_eps_cpu_bound: round(logEvents / Math.max(rebuildNodeCpu, (rebuildNodeCpu + rebuildPgCpu) / 2)),
    rebuild_batch_size: REBUILD_BATCH,
    catch_up_all_read_models_seconds: round(catchUpSeconds),
    dashboard_p50_ms: round(percentile(dashboard, 50)),
    dashboard_p95_ms: round(percentile(dashboard, 95)),
    graphql_p50_ms: round(percentile(graphql, 50)),
    graphql_p95_ms: round(percentile(graphql, 95)),
    requests_each: REQUESTS,
    live_lag_ms_p50: round(percentile(lags, 50)),
    live_lag_ms_p99: round(percentile(lags, 99)),
    live_events: LIVE_EVENTS,
    export_eps: round(exported.read / exportSeconds),
    export_mb: round(bytes / 2 ** 20),
    export_node_cpu_seconds: round(exportNodeCpu),
    export_postgres_cpu_seconds: round(exportPgCpu),
    export_eps_cpu_bound: round(exported.read / Math.max(exportNodeCpu, (exportNodeCpu + exportPgCpu) / 2)),
    peak_rss_mb: peakRssMb(),
    // The machine is shared (other work runs beside the bench): its load when the run ended.
    load_average_1m: round(loadavg()[0]!, 2),
  };
  const goals = {
    rebuild_eps: { goal: '>= 50000', met: results.rebuild_eps >= 50_000 },
    dashboard_p95_ms: { goal: '<= 50', met: results.dashboard_p95_ms <= 50 },
    graphql_p95_ms: { goal: '<= 50', met: results.graphql_p95_ms <= 50 },
    live_lag_ms_p99: { goal: '<= 250', met: results.live_lag_ms_p99 <= 250 },
    export_eps: { goal: '>= 100000', met: results.export_eps >= 100_000 },
  };
  console.log({ ...results, goals });
  writeResults('analytics', { ...results, goals });

  await app.close();
  await workers.stop();
  await platform.close();
  // BENCH_KEEP_DB=1 leaves the seeded database for profiling (its URL is printed).
  if (process.env.BENCH_KEEP_DB === '1') console.log(`kept ${db.url}`);
  else await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * BENCH_ANALYTICS_DB_URL=<a database kept with BENCH_KEEP_DB=1>: only the rebuild, for profiling. Each run
 * rebuilds every analytics read model together (as rebuild_eps measures), then each one alone, then a pass
 * that only reads the log (no read model writes): where the time goes, per read model and in reading.
 * Prints; writes no JSON.
 */
async function profileRebuild(url: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kesher-bench-analytics-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-42',
    NODE_ENV: 'production',
    PORT: '0',
  });
  const platform = await composePlatform(config, { applicationName: 'kesher-bench-analytics' });
  const { rows } = await platform.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM events`);
  const logEvents = Number(rows[0]!.n);
  const readOnly = analyticsProjections.map((projection) => ({
    ...projection,
    name: `${projection.name}-read-only`,
    tables: [],
    migrations: [],
    apply: async () => {},
  }));
  const only = (process.env.BENCH_PROFILE_ONLY ?? '').split(',').filter(Boolean);
  const runs: [string, readonly (typeof analyticsProjections)[number][]][] = [
    ['all together', analyticsProjections],
    ...(only.length ? [] : analyticsProjections.map((p) => [p.name, [p]] as [string, typeof analyticsProjections])),
    ['reading only', readOnly],
  ];
  for (const [label, projections] of runs) {
    if (only.length && label !== 'all together' && label !== 'reading only') continue;
    const pgBefore = await backendCpu(platform.sql, 'kesher-bench-analytics');
    const nodeBefore = process.cpuUsage();
    const started = performance.now();
    await rebuildTogether({
      eventStore: platform.eventStore,
      sql: platform.sql,
      projections,
      batchSize: REBUILD_BATCH,
    });
    const seconds = (performance.now() - started) / 1000;
    const nodeCpu = nodeCpuSince(nodeBefore);
    const pgCpu = cpuSince(pgBefore, await backendCpu(platform.sql, 'kesher-bench-analytics'));
    console.log(
      `${label.padEnd(28)} ${seconds.toFixed(1).padStart(6)} s  ${Math.round(logEvents / seconds)
        .toString()
        .padStart(
          7,
        )} ev/s  node ${nodeCpu.toFixed(1)} s  postgres ${pgCpu.toFixed(1)} s  load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  await platform.sql.query(`DELETE FROM projection_checkpoints WHERE name LIKE '%-read-only'`).catch(() => {});
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
}

if (process.env.BENCH_ANALYTICS_DB_URL) await profileRebuild(process.env.BENCH_ANALYTICS_DB_URL);
else await main();
