import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exited, repoRoot, waitUntil } from '@kesher/services/testing/processes';

/**
 * The roles of the production topology (services/src/main/<role>.main.ts) and the line each logs (at info)
 * once up; the API is up once its health route answers.
 */
const READY = {
  projector: 'projector running',
  relay: 'relay running',
  workers: 'workers running',
  api: undefined,
} as const;

export interface Role {
  /** Its name in the test: api1, api2, w1, w2, projector, relay. */
  name: string;
  role: keyof typeof READY;
  env: Record<string, string>;
  /** The API's port (its health route says when it is up). */
  port?: number;
}

export interface Running {
  name: string;
  role: string;
  child: ChildProcess;
  port?: number;
  log: string;
  output(): string;
}

/**
 * Starts and stops the Kesher processes of the scale test, each `node --import tsx <role>.main.ts` as the
 * image runs them, with its output in `<logDir>/<name>.log` (kept after the run for reading a failure).
 */
export function createTopology(logDir: string, baseEnv: Record<string, string>) {
  const running = new Map<string, Running>();

  function start(role: Role): Running {
    const log = join(logDir, `${role.name}.log`);
    const fd = openSync(log, 'a');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, `services/src/main/${role.role}.main.ts`)],
      {
        cwd: repoRoot,
        // Their ready line is logged at info (pino): below it, a quieter LOG_LEVEL would hide it.
        env: { ...baseEnv, ...(READY[role.role] ? { LOG_LEVEL: 'info' } : {}), ...role.env },
        stdio: ['ignore', fd, fd],
      },
    );
    closeSync(fd);
    const entry: Running = {
      name: role.name,
      role: role.role,
      child,
      port: role.port,
      log,
      output: () => readFileSync(log, 'utf8'),
    };
    running.set(role.name, entry);
    return entry;
  }

  /** Resolves once the process says it is up; throws with its log if it exits first. */
  async function ready(entry: Running, timeoutMs = 300_000) {
    const line = READY[entry.role as keyof typeof READY];
    const healthy = () =>
      fetch(`http://127.0.0.1:${entry.port}/api/v1/health`).then(
        (response) => response.ok,
        () => false,
      );
    await waitUntil(
      async () => {
        if (entry.child.exitCode !== null)
          throw new Error(
            `${entry.name} exited (${entry.child.exitCode}) before it was up:\n${entry.output().slice(-4000)}`,
          );
        return line ? entry.output().includes(line) : await healthy();
      },
      {
        timeoutMs,
        intervalMs: 100,
        what: `${entry.name} to be up (${line ? `to say "${line}"` : 'its health route'})\n${entry.output().slice(-2000)}`,
      },
    );
  }

  /** SIGKILL: no shutdown, no goodbye to the consumer group, open streams cut. */
  async function kill(name: string) {
    const entry = running.get(name);
    if (!entry) throw new Error(`no process ${name}`);
    entry.child.kill('SIGKILL');
    await exited(entry.child);
  }

  /**
   * Graceful stop (SIGTERM, then SIGKILL after `graceMs`) of every process still running, or of those
   * `which` picks; returns the exit codes (or the signal that ended one).
   */
  async function stopAll(
    graceMs = 15_000,
    which: (entry: Running) => boolean = () => true,
  ): Promise<Record<string, number | null | string>> {
    const codes: Record<string, number | null | string> = {};
    await Promise.all(
      [...running.values()].filter(which).map(async (entry) => {
        if (entry.child.exitCode !== null || entry.child.signalCode !== null) {
          codes[entry.name] = entry.child.signalCode ?? entry.child.exitCode;
          return;
        }
        entry.child.kill('SIGTERM');
        const timer = setTimeout(() => entry.child.kill('SIGKILL'), graceMs);
        const code = await exited(entry.child);
        clearTimeout(timer);
        codes[entry.name] = entry.child.signalCode ?? code;
      }),
    );
    return codes;
  }

  return { start, ready, kill, stopAll, running };
}
export type Topology = ReturnType<typeof createTopology>;
