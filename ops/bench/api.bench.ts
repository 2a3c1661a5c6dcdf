/**
 * API benchmarks (issue: the /api/v1 facade). `GET /assistants/` for an owner with 20 assistants under
 * autocannon (100 connections, 20 s) against Kesher running as its own process on the real Postgres;
 * then the knowledge figures (ingestion throughput, retrieval latency and quality).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createTestDatabase } from '@kesher/services/testing/test-database';
import { peakRssMb, repoRoot, round, writeResults } from './bench-kit.js';

const DURATION = Number(process.env.BENCH_API_SECONDS ?? 20);
const PORT = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${PORT}/api/v1`;

async function startServer(dbUrl: string) {
  const child = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []), '--import', 'tsx', join(repoRoot, 'services/src/main/embedded.main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      PORT: String(PORT),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'kesher-bench-')),
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-42',
      RATE_LIMIT_PER_MINUTE: '100000000',
      // The list benchmark's owner has 20 assistants; the free plan allows one.
      PLAN_FREE_MAX_ASSISTANTS: '20',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`server did not start:\n${output}`);
}

async function json(path: string, init: RequestInit & { token?: string } = {}) {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

export async function getAssistantsFigures() {
  const db = await createTestDatabase('kesher_bench_api');
  const server = await startServer(db.url);
  try {
    const session = await json('/auth/register', { method: 'POST', body: JSON.stringify({ email: 'bench@example.com', password: 'Bench-Passw0rd!' }) });
    const token = session.access_token as string;
    for (let i = 0; i < 20; i++) {
      await json('/assistants/', {
        method: 'POST',
        token,
        body: JSON.stringify({ name: `Assistant ${i}`, description: 'A shop assistant for the benchmark', instructions: 'Answer briefly from the catalogue.', website_url: 'https://shop.example.com' }),
      });
    }
    const listed = (await fetch(`${base}/assistants/`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as unknown[];
    if (listed.length !== 20) throw new Error(`expected 20 assistants, got ${listed.length}`);
    // Warm-up so JIT and connection pools are settled before measuring.
    await autocannon({ url: `${base}/assistants/`, connections: 20, duration: 3, headers: { authorization: `Bearer ${token}` } });
    const result = await autocannon({ url: `${base}/assistants/`, connections: 100, duration: DURATION, headers: { authorization: `Bearer ${token}` } });
    return {
      get_assistants_rps: round(result.requests.average),
      get_assistants_p50_ms: result.latency.p50,
      get_assistants_p99_ms: result.latency.p99,
      get_assistants_errors: result.errors + result.non2xx,
      get_assistants_server_peak_rss_mb: peakRssMb(server.pid!),
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await db.drop();
  }
}

const results: Record<string, unknown> = {};
const only = process.argv.slice(2);
if (only.length === 0 || only.includes('assistants')) Object.assign(results, await getAssistantsFigures());
if (only.length === 0 || only.includes('knowledge')) {
  const { knowledgeFigures } = await import('./knowledge.bench.js');
  Object.assign(results, await knowledgeFigures());
}
const r = results as Partial<Record<string, number>> as Record<string, number> & { get_assistants_p99_ms: number; get_assistants_rps: number; retrieval_p95_ms_100k_chunks: number; retrieval_recall_at_5_he: number; retrieval_recall_at_5_en: number };
results.goals = {
  get_assistants: { goal: 'p99 <= 50 ms at >= 1000 req/s', met: r.get_assistants_p99_ms <= 50 && r.get_assistants_rps >= 1000 },
  retrieval_p95_ms_100k_chunks: { goal: '<= 50', met: r.retrieval_p95_ms_100k_chunks <= 50 },
  retrieval_recall_at_5: { goal: '>= 0.8 in each language', met: r.retrieval_recall_at_5_he >= 0.8 && r.retrieval_recall_at_5_en >= 0.8 },
};
results.command = 'make bench-api';
writeResults(only.length ? `api-partial-${only.join('-')}` : 'api', results);
console.log(JSON.stringify(results, null, 2));
process.exit(0);
