import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupCaughtUp, kafkaAvailability, kafkaBrokers } from '@kesher/services/testing/kafka';
import { exited, freePort, repoRoot, waitUntil } from '@kesher/services/testing/processes';
import { createTestDatabase, postgresAvailability } from '@kesher/services/testing/test-database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  environmentOf,
  imageEnvironment,
  kesherServices,
  readComposeFile,
  type ComposeService,
} from './compose-file.js';

const compose = readComposeFile(repoRoot);
const secret = () => randomBytes(36).toString('base64url');

const postgres = await postgresAvailability();
const gate = postgres.available ? await kafkaAvailability() : postgres;
/** EventStoreDB only where one answers (EVENTSTORE_URL, as for its contract test); otherwise the log is in Postgres. */
const eventStoreUrl = process.env.EVENTSTORE_URL;

describe.skipIf(!gate.available)(
  `the production topology of docker-compose.yml started without Docker (Postgres, Kafka, ${eventStoreUrl ? 'EventStoreDB' : 'the event log on Postgres: no EventStoreDB here'})${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    let dataDir: string;
    let base: string;
    const children = new Map<string, ChildProcess & { output: () => string }>();
    const output = () => [...children].map(([name, child]) => `--- ${name}\n${child.output().slice(-3000)}`).join('\n');

    /**
     * The service's command and environment as its container would have them — the image's ENV, then the
     * service's environment with Compose's substitution — with the hosts of the compose network moved to
     * this machine: the database a fresh one (no tables: the processes apply the migrations themselves,
     * all at once), Kafka the local broker, ports free ones. Nothing else of the test's own environment.
     */
    async function containerEnvironment(
      name: string,
      service: ComposeService,
      variables: Record<string, string>,
    ): Promise<Record<string, string>> {
      const environment: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...imageEnvironment(repoRoot),
        ...environmentOf(service, variables),
      };
      environment.DATABASE_URL = db.url;
      environment.KAFKA_BROKERS = kafkaBrokers().join(',');
      if (eventStoreUrl) environment.EVENTSTORE_URL = eventStoreUrl;
      else delete environment.EVENTSTORE_URL;
      environment.HOST = '127.0.0.1';
      environment.DATA_DIR = join(dataDir, name);
      if (name === 'projector') environment.METRICS_PORT = String(await freePort());
      return environment;
    }

    function start(name: string, command: string[], environment: Record<string, string>) {
      const [program, ...args] = command;
      const child = spawn(program === 'node' ? process.execPath : program!, args, {
        cwd: repoRoot,
        env: environment,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.stderr.on('data', (chunk) => (text += chunk));
      children.set(name, Object.assign(child, { output: () => text }));
    }

    beforeAll(async () => {
      db = await createTestDatabase('kesher_compose', { empty: true });
      dataDir = mkdtempSync(join(tmpdir(), 'kesher-compose-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const variables = { AUTH_SECRET: secret(), PUBLIC_URL: base };
      // Started together, as `docker compose up` starts them once the infrastructure is healthy.
      for (const [name, service] of kesherServices(compose)) {
        const environment = await containerEnvironment(name, service, variables);
        if (name === 'api') environment.PORT = String(port);
        start(name, service.command!, environment);
      }
      const says = (name: string, line: string) =>
        waitUntil(
          () => {
            const child = children.get(name)!;
            if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${child.output()}`);
            return child.output().includes(line);
          },
          { timeoutMs: 120_000, intervalMs: 50, what: `${name} to say "${line}"\n${output()}` },
        );
      await Promise.all([
        says('relay', 'relay running'),
        says('projector', 'projector running'),
        says('workers', 'workers running'),
        says('api', 'Server listening'),
      ]);
      // The workers' groups are this deployment's own (named after the id its database drew); being new,
      // they start at the beginning of the topics every database on the broker shares.
      const groups = /consumer groups (\S+), (\S+)\)/.exec(children.get('workers')!.output());
      await groupCaughtUp(groups![2]!, ['kesher.thread'], { timeoutMs: 120_000 });
    }, 300_000);

    afterAll(async () => {
      // Anything still running after a failure is killed outright, so nothing keeps the database in use.
      await Promise.all([...children.values()].map(async (child) => (child.kill('SIGKILL'), exited(child))));
      await db?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    async function call<T = Record<string, unknown>>(
      path: string,
      init: { token?: string; body?: unknown } = {},
    ): Promise<T> {
      const response = await fetch(`${base}/api/v1${path}`, {
        method: init.body ? 'POST' : 'GET',
        headers: {
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      const text = await response.text();
      if (!response.ok)
        throw new Error(`${init.body ? 'POST' : 'GET'} ${path}: ${response.status} ${text}\n${output()}`);
      return JSON.parse(text) as T;
    }

    it('answers /api/v1/health, and an owner registers, creates an assistant and gets an answer through the relay, Kafka, the workers and the projector', async () => {
      const health = await call<{ status: string; adapters: Record<string, string> }>('/health');
      expect(health).toMatchObject({
        status: 'ok',
        adapters: { eventStore: eventStoreUrl ? 'eventstoredb' : 'postgres', readModels: 'postgres', bus: 'kafka' },
      });

      // Registration answers once the accounts read model (the projector) has the account.
      const session = await call<{ access_token: string }>('/auth/register', {
        body: { email: `compose-${Date.now()}@example.com`, password: 'Str0ng-Passw0rd!' },
      });
      const token = session.access_token;
      const assistant = await call<{ assistant_id: number; openai_assistant_id: string }>('/assistants/', {
        token,
        body: { name: 'Bakery', description: 'The bakery', instructions: 'Answer from what you know.' },
      });
      const listed = await call<{ id: number }[] | { assistants: { id: number }[] }>('/assistants/', { token });
      expect(JSON.stringify(listed)).toContain(`${assistant.assistant_id}`);

      // A question: RunRequested goes relay → Kafka → the workers' ai-runner, whose answer the projector shows.
      const { thread_id: threadId } = await call<{ thread_id: string }>('/threads/', {
        token,
        body: { assistant_id: assistant.assistant_id },
      });
      await call(`/threads/${threadId}/messages`, { token, body: { content: 'When do you open?' } });
      const { run_id: runId } = await call<{ run_id: string }>(`/threads/${threadId}/runs`, {
        token,
        body: { assistant_id: assistant.openai_assistant_id },
      });
      const settled = await waitUntil(
        async () => {
          const { status } = await call<{ status: string }>(`/threads/${threadId}/runs/${runId}`, { token });
          return ['completed', 'failed', 'expired'].includes(status) && status;
        },
        { timeoutMs: 60_000, intervalMs: 100, what: `the run to settle\n${output()}` },
      );
      expect(settled).toBe('completed');
      const messages = await call<{ data: { role: string }[] }>(`/threads/${threadId}/messages`, { token });
      expect(messages.data.map((message) => message.role).sort()).toEqual(['assistant', 'user']);
    });

    it('serves the built client from the api (when it has been built), as the image does', async () => {
      if (!existsSync(join(repoRoot, 'client/dist/index.html'))) return;
      const page = await fetch(`${base}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
    });

    it('every process stops cleanly on SIGTERM, as `docker compose stop` asks', async () => {
      const codes = await Promise.all(
        [...children.entries()].map(async ([name, child]) => {
          child.kill('SIGTERM');
          return [name, await exited(child)] as const;
        }),
      );
      expect(Object.fromEntries(codes)).toEqual({ api: 0, relay: 0, projector: 0, workers: 0 });
    });
  },
);
