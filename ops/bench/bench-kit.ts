import { availableParallelism, totalmem } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Small shared helpers for the benchmark suites: percentiles, RSS, and the JSON results file. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** Peak resident set size (VmHWM) of a process, in MB; undefined when it cannot be read. */
export function peakRssMb(pid: number | 'self' = 'self'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

export function writeResults(suite: string, results: Record<string, unknown>) {
  const file = resolve(repoRoot, 'bench-results', `${suite}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ suite, measured_at: new Date().toISOString(), machine: machineFacts(), ...results }, null, 2)}\n`,
  );
  console.log(`wrote ${file}`);
}

function machineFacts() {
  return { cores: availableParallelism(), memory_gb: round(totalmem() / 2 ** 30), node: process.version };
}

/** Runs `work` repeatedly on `concurrency` workers for `seconds`; returns completed operations per second. */
export async function throughput(
  concurrency: number,
  seconds: number,
  work: (worker: number, i: number) => Promise<void>,
): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = 0; performance.now() < deadline; i++) {
        await work(worker, i);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}
