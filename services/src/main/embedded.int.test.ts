import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, startMain, waitUntil } from '../testing/processes.js';

/**
 * `make start`'s process: no Postgres, Kafka or EventStoreDB — PGlite under DATA_DIR and the
 * in-process bus — and what it stores survives a restart.
 */
describe('the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kesher-embedded-'));
  const port = String(19_000 + Math.floor(Math.random() * 1000));
  const base = `http://127.0.0.1:${port}/api/v1`;
  const env = {
    DATA_DIR: dataDir,
    PORT: port,
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    EVENTSTORE_URL: '',
    NODE_ENV: 'development',
  };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function boot() {
    const child = startMain('embedded', env);
    await waitUntil(async () => (await fetch(`${base}/health`).catch(() => undefined))?.ok, {
      timeoutMs: 150_000,
      intervalMs: 100,
      what: `the embedded server\n${child.output()}`,
    });
    return child;
  }

  // Two boots of a fresh PGlite (its initdb alone takes 10–20 s on a loaded two-core machine; a boot took 30 s
  // beside a full suite and a benchmark): each boot may take two and a half minutes before the test gives up.
  it(
    'serves health with the embedded adapters, demo accounts, and keeps data across a restart',
    { timeout: 360_000 },
    async () => {
      // Empty values must count as unset, exactly like a fresh shell.
      for (const key of ['DATABASE_URL', 'KAFKA_BROKERS', 'EVENTSTORE_URL'])
        delete (env as Record<string, string>)[key];
      let server = await boot();
      try {
        const health = await (await fetch(`${base}/health`)).json();
        expect(health).toMatchObject({
          status: 'ok',
          adapters: { eventStore: 'pglite', readModels: 'pglite', bus: 'in-process' },
        });
        expect(server.output()).toContain(`Kesher is running at http://localhost:${port}`);

        const demo = await fetch(`${base}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'dana@demo.kesher.app', password: 'Demo-Kesher-2026!' }),
        });
        expect(demo.status).toBe(200);
        const token = ((await demo.json()) as { access_token: string }).access_token;
        const created = await fetch(`${base}/assistants/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ name: 'Survivor', description: 'Kept across restarts', instructions: 'Stay' }),
        });
        expect(created.status).toBe(201);
      } finally {
        server.kill('SIGTERM');
        expect(await exited(server)).toBe(0);
      }

      server = await boot();
      try {
        const login = await fetch(`${base}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'dana@demo.kesher.app', password: 'Demo-Kesher-2026!' }),
        });
        const token = ((await login.json()) as { access_token: string }).access_token;
        const list = (await (
          await fetch(`${base}/assistants/`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { name: string }[];
        expect(list.map((a) => a.name)).toEqual(['Survivor']);
      } finally {
        server.kill('SIGTERM');
        await exited(server);
      }
    },
  );
});
