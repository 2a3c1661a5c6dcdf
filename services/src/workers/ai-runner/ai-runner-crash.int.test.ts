import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamIds, type MessageDto, type RecordedEvent } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlEventStore } from '../../platform/event-store/sql-event-store.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { groupCaughtUp, kafkaAvailability, kafkaBrokers } from '../../testing/kafka.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../../testing/openai-stand-in.js';
import { exited, freePort, startMain, waitUntil } from '../../testing/processes.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';

const postgres = await postgresAvailability();
const gate = postgres.available ? await kafkaAvailability() : postgres;

/** How long a run may take; short, so that the test waits for the expiry of the killed run only briefly. */
const DEADLINE_SECONDS = 4;

type Child = ReturnType<typeof startMain>;

/**
 * The production topology as separate processes (api, projector, relay, workers) on Postgres and Kafka,
 * the model being the local OpenAI stand-in. The workers process is killed (SIGKILL: no shutdown, no
 * leaving the consumer group) while an answer is streaming; the run must not stay in progress, a new
 * workers process must record its expiry and never answer it, and must then answer the next run.
 */
describe.skipIf(!gate.available)(
  `the ai-runner killed in the middle of an answer${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let sql: Sql;
    let store: EventStore;
    let standIn: OpenAiStandIn;
    let dataDir: string;
    let env: Record<string, string>;
    let base: string;
    const children = new Set<Child>();

    function start(name: string) {
      // METRICS_PORT is the projector's metrics server here; the api would open its operator port on it too.
      const child = startMain(name, name === 'projector' ? env : { ...env, METRICS_PORT: '' });
      children.add(child);
      return child;
    }
    async function stop(child: Child, signal: NodeJS.Signals) {
      child.kill(signal);
      await exited(child);
      children.delete(child);
    }
    const output = () =>
      [...children].map((child) => `--- ${child.spawnargs.at(-1)}\n${child.output().slice(-3000)}`).join('\n');

    /** Waits for a composition root to say it is up (its first consumer-group join included, for workers). */
    async function running(child: Child, line: string) {
      await waitUntil(() => child.output().includes(line) || child.exitCode !== null, {
        timeoutMs: 90_000,
        intervalMs: 50,
        what: `"${line}"`,
      });
      if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}):\n${child.output()}`);
    }

    beforeAll(async () => {
      db = await createTestDatabase('kesher_crash');
      standIn = await startOpenAiStandIn();
      dataDir = mkdtempSync(join(tmpdir(), 'kesher-crash-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}/api/v1`;
      env = {
        DATABASE_URL: db.url,
        KAFKA_BROKERS: kafkaBrokers().join(','),
        // This database's own consumer groups: the topics, and any group named alike, are shared by every
        // database on the broker.
        CONSUMER_GROUP_SUFFIX: db.name,
        PORT: String(port),
        METRICS_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        AUTH_SECRET: 'crash-test-secret-that-is-long-enough-for-hs256',
        NODE_ENV: 'test',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: standIn.baseURL,
        OPENAI_MODEL: 'stand-in-model',
        RUN_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
        RUN_SWEEP_INTERVAL_MS: '200',
      };
      const api = start('api');
      const projector = start('projector');
      const relay = start('relay');
      const workers = start('workers');
      await running(relay, 'relay running');
      await running(projector, 'projector running');
      await running(workers, 'workers running');
      await running(api, 'Server listening');
      // The group is new, so it starts with the other databases' messages on the shared topic: the run
      // below must not spend its few seconds waiting behind them.
      await groupCaughtUp(`ai-runner-${db.name}`, ['kesher.thread']);
      sql = createPgSql({ connectionString: db.url, max: 2 });
      store = await createSqlEventStore({ sql });
    }, 180_000);

    afterAll(async () => {
      // Killed outright: a test that failed half-way must not leave processes behind or the database in use.
      await Promise.all([...children].map((child) => stop(child, 'SIGKILL')));
      await store?.close();
      await sql?.close();
      await standIn?.close();
      await db?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    async function call<T = Record<string, unknown>>(
      path: string,
      init: { token?: string; body?: unknown } = {},
    ): Promise<T> {
      const response = await fetch(`${base}${path}`, {
        method: init.body ? 'POST' : 'GET',
        headers: {
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${init.body ? 'POST' : 'GET'} ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    }

    const runEvents = async (threadId: string, type: string, runId: string) =>
      (await store.readStream(streamIds.thread(threadId))).filter(
        (e) => e.type === type && (e.data as { runId: string }).runId === runId,
      );

    // Real processes started and killed, each wait with its own limit: their sum, not the one-minute default.
    it(
      'expires the run the killed worker was answering, never answers it, and a new worker answers the next run',
      { timeout: 300_000 },
      async () => {
        const session = await call<{ access_token: string }>('/auth/register', {
          body: { email: `crash-${Date.now()}@example.com`, password: 'Str0ng-Passw0rd!' },
        });
        const token = session.access_token;
        const assistant = await call<{ assistant_id: number; openai_assistant_id: string }>('/assistants/', {
          token,
          body: { name: 'Bakery', description: 'The bakery', instructions: 'Answer briefly.' },
        });
        const { thread_id: threadId } = await call<{ thread_id: string }>('/threads/', {
          token,
          body: { assistant_id: assistant.assistant_id },
        });
        const ask = async (content: string) => {
          await call(`/threads/${threadId}/messages`, { token, body: { content } });
          return (
            await call<{ run_id: string }>(`/threads/${threadId}/runs`, {
              token,
              body: { assistant_id: assistant.openai_assistant_id },
            })
          ).run_id;
        };
        const status = async (runId: string) =>
          (await call<{ status: string }>(`/threads/${threadId}/runs/${runId}`, { token })).status;
        const answers = async () =>
          (await call<{ data: MessageDto[] }>(`/threads/${threadId}/messages`, { token })).data.filter(
            (m) => m.role === 'assistant',
          );

        // The model starts answering and then holds the stream open: the answer is mid-way when the worker dies.
        standIn.script({ kind: 'hold', pieces: ['The bakery opens ', 'at seven'] });
        const killedRun = await ask('When does the bakery open?');
        await waitUntil(async () => standIn.requests.length === 1 && (await status(killedRun)) === 'in_progress', {
          timeoutMs: DEADLINE_SECONDS * 1000,
          intervalMs: 50,
          what: `the run to be in progress with the model asked\n${output()}`,
        });
        const killed = [...children].find((child) => child.spawnargs.at(-1)!.endsWith('workers.main.ts'))!;
        await stop(killed, 'SIGKILL');
        // The model's stream went down with the process.
        await waitUntil(() => standIn.closedByClient === 1, {
          timeoutMs: 30_000,
          what: 'the held model stream to be closed',
        });

        // Nobody is left to settle it, yet it is not reported in progress forever: past its deadline it reads as expired.
        await waitUntil(async () => (await status(killedRun)) === 'expired', {
          timeoutMs: DEADLINE_SECONDS * 1000 + 10_000,
          intervalMs: 100,
          what: 'the killed run to read as expired',
        });
        expect(await runEvents(threadId, 'RunExpired', killedRun)).toEqual([]);

        // A new workers process records the expiry (its sweep, or the redelivered request past its deadline).
        const restarted = start('workers');
        const expired = await waitUntil(async () => (await runEvents(threadId, 'RunExpired', killedRun))[0], {
          timeoutMs: 60_000,
          intervalMs: 100,
          what: `the restarted worker to record RunExpired\n${output()}`,
        });
        expect(expired?.metadata.actor).toEqual({ kind: 'system', id: 'ai-runner' });
        await running(restarted, 'workers running');

        // The next run in the same conversation is answered by the new worker, from the model's reply.
        standIn.script({
          kind: 'stream',
          pieces: ['We open at 7:00 ', 'on Sunday.'],
          usage: { prompt_tokens: 40, completion_tokens: 6 },
        });
        const nextRun = await ask('And when do you open on Sunday?');
        await waitUntil(async () => ['completed', 'failed', 'expired'].includes(await status(nextRun)), {
          timeoutMs: 30_000,
          intervalMs: 50,
          what: `the next run to settle\n${output()}`,
        });
        expect(await status(nextRun)).toBe('completed');
        expect((await answers()).map((m) => [m.run_id, m.content[0]!.text.value])).toEqual([
          [nextRun, 'We open at 7:00 on Sunday.'],
        ]);

        // The killed run: one expiry, no answer, no completion; the model was asked once for it, never again.
        const events: RecordedEvent[] = await store.readStream(streamIds.thread(threadId));
        const about = (runId: string) =>
          events.filter((e) => (e.data as { runId?: string }).runId === runId).map((e) => e.type);
        // (Its start was never recorded: a worker records it with the answer; its claim on the output said in_progress.)
        expect(about(killedRun)).toEqual(['RunRequested', 'RunExpired']);
        expect(about(nextRun)).toEqual(['RunRequested', 'RunStarted', 'MessagePosted', 'RunCompleted']);
        expect(standIn.requests).toHaveLength(2);
        expect(standIn.requests[1]!.messages.at(-1)!.content).toContain('And when do you open on Sunday?');
      },
    );
  },
);
