import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, freePort, startMain, waitUntil } from '../testing/processes.js';
import { LOCK_FILE } from './data-dir-lock.js';

/**
 * Two `make start` servers on one DATA_DIR both ran and lost acknowledged writes (issue 10 item 3). Real
 * processes: the first owns the directory, a second refuses to start naming it, and after the owner is
 * killed with -9 the next start takes the stale lock over.
 */
describe('one embedded server per data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kesher-lock-'));
  const env = (port: number) => ({
    DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    EVENTSTORE_URL: '',
    NODE_ENV: 'development',
    DEMO_ACCOUNTS: 'false',
  });
  const running: ReturnType<typeof startMain>[] = [];
  afterAll(async () => {
    for (const child of running) {
      child.kill('SIGKILL');
      await exited(child);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function boot(port: number) {
    const child = startMain('embedded', env(port));
    running.push(child);
    await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined))?.ok, {
      timeoutMs: 150_000,
      intervalMs: 100,
      what: `the embedded server\n${child.output()}`,
    });
    return child;
  }

  // Three real servers start one after another (each took 30 s beside a full suite and a benchmark, and may take
  // two and a half minutes): the test's time is the sum of their waits, not vitest's one-minute default.
  it(
    'refuses a second server with the holder pid, and takes over after the holder is killed with -9',
    { timeout: 480_000 },
    async () => {
      const first = await boot(await freePort());
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(first.pid);
      // The embedded default logs through pino now (errors included), not only its banner.
      expect(first.output()).toMatch(/"level":30,.*"msg":"Server listening at/);

      const secondPort = await freePort();
      const second = startMain('embedded', env(secondPort));
      running.push(second);
      expect(await exited(second)).toBe(1);
      expect(second.output()).toContain(`is in use by another Kesher server (pid ${first.pid})`);
      expect(second.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(await fetch(`http://127.0.0.1:${secondPort}/api/v1/health`).catch(() => 'refused')).toBe('refused');

      first.kill('SIGKILL');
      await exited(first);
      const third = await boot(await freePort());
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(third.pid);
      third.kill('SIGTERM');
      expect(await exited(third)).toBe(0);
      // A clean stop frees the directory.
      expect(() => readFileSync(join(dataDir, LOCK_FILE))).toThrow(/ENOENT/);
    },
  );
});
