import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Waits for the server's health answer, failing early if the process dies. */
async function waitForHealth(url: string, child: ChildProcess, log: () => string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250)); // polling the health check, not waiting on a test state
  }
  throw new Error(`server did not become healthy in ${timeoutMs} ms:\n${log()}`);
}

/**
 * Starts the real embedded Kesher (API + built client, PGlite in a temp dir) on a free port — what
 * `make start` runs — and returns its URL and a stop function. `env` adds settings for one suite's own
 * server (e.g. an outside service's stand-in address).
 */
export async function startKesher(env: Record<string, string> = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kesher-e2e-'));
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/src/main/embedded.main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      // Every browser of the suite is a visitor from 127.0.0.1: the per-address limit would count the
      // whole suite as one visitor. The per-visitor and per-link limits stay as shipped.
      PUBLIC_CHAT_ADDRESS_PER_MINUTE: '1000',
      // …and so would the conversations one address may start in an hour (20): the suite's visitors start more.
      PUBLIC_CHAT_THREADS_PER_ADDRESS_PER_HOUR: '1000',
      // The crawler's browser test crawls a local website on 127.0.0.1 (the SSRF guard refuses it otherwise).
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const baseUrl = `http://localhost:${port}`;
  // On a loaded machine the server can take longer than 90 s to come up: KESHER_START_TIMEOUT_MS raises the wait.
  const startTimeout = Number(process.env.KESHER_START_TIMEOUT_MS) || undefined;
  await waitForHealth(`${baseUrl}/api/v1/health`, child, () => output, startTimeout).catch((error: unknown) => {
    child.kill('SIGKILL'); // a server that did not come up is not left running
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    baseUrl,
    /** Its DATA_DIR: the mail it sends lands in `outbox/` there (no SMTP server is set up, as on `make start`). */
    dataDir,
    /** What the server printed (warnings and errors: LOG_LEVEL is warn). */
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
