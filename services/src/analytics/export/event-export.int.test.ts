import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { exited, startMain } from '../../testing/processes.js';
import { postgresAvailability } from '../../testing/test-database.js';
import {
  ask,
  ownerThread,
  ownerWithAssistant,
  scriptedProvider,
  settled,
  visitorThread,
  type ScenarioOwner,
} from '../testing/analytics-scenario.js';
import { eventStoreSource, exportEvents, progressLine, sqlLogSource, type ExportFilter } from './event-export.js';
import { createCopyLogReader } from './copy-log-reader.js';
import { createSqlLogReader } from './sql-log-reader.js';

const gate = await postgresAvailability();

/** A message text as the export writes it: sealed under its conversation's key (docs/privacy.md), never in clear. */
const shown = (text: unknown) =>
  text === undefined ? null : typeof text === 'object' && text !== null && '$pii' in text ? 'sealed' : text;

interface Line {
  eventId: string;
  streamId: string;
  position: string;
  type: string;
  data: Record<string, unknown>;
  metadata: { timestamp: string };
}

describe.skipIf(!gate.available)(
  `exporting the event log as NDJSON${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let dana: ScenarioOwner;
    let noa: ScenarioOwner;
    let danaAssistantId: string;
    let dir: string;
    let now = new Date('2030-05-01T10:00:00.000Z');

    /**
     * Exports through every source (the store's port, the SQL log as text, COPY — small pages, so several
     * are cut): they must write the same events.
     */
    const exported = async (filter: ExportFilter = {}, pageSize = 7) => {
      const run = async (
        source: Parameters<typeof exportEvents>[0]['source'],
        copy?: ReturnType<typeof createCopyLogReader>,
      ) => {
        let text = '';
        const result = await exportEvents(
          { source, copy, write: (chunk) => void (text += chunk.toString()), pageSize, copyPageSize: pageSize },
          filter,
        );
        const lines = text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Line);
        expect(lines).toHaveLength(result.written);
        return lines;
      };
      // As stored: personal fields sealed (docs/privacy.md), so an exported file is erased with its subjects.
      const viaPort = await run(eventStoreSource(h.platform.sealedEventStore));
      const viaSql = await run(sqlLogSource(createSqlLogReader(h.platform.sql)));
      expect(viaSql).toEqual(viaPort);
      const copy = createCopyLogReader(h.dbUrl);
      const viaCopy = await run(sqlLogSource(createSqlLogReader(h.platform.sql)), copy).finally(() => copy.close());
      expect(viaCopy).toEqual(viaPort);
      return viaPort;
    };

    beforeAll(async () => {
      h = await createApiHarness({ answerProvider: scriptedProvider, clock: () => now });
      dir = mkdtempSync(join(tmpdir(), 'kesher-export-'));
      dana = await ownerWithAssistant(h, { share: true });
      noa = await ownerWithAssistant(h);
      await ask(h, dana, await ownerThread(h, dana), 'Sourdough today?');
      now = new Date('2030-05-02T10:00:00.000Z');
      await (await visitorThread(h, dana)).ask('Do you deliver?');
      await ask(h, noa, await ownerThread(h, noa), 'Gift cards?');
      await settled(h);
      danaAssistantId = (
        await h.platform.sql.query<{ id: string }>(`SELECT id FROM assistants WHERE owner_id = $1`, [dana.accountId])
      ).rows[0]!.id;
    });
    afterAll(async () => {
      await h?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('writes every event once, oldest first, in the shape of the Kafka topics', async () => {
      const all = await exported();
      const head = await h.platform.eventStore.headPosition();
      expect(all.length).toBeGreaterThan(20);
      expect(new Set(all.map((line) => line.eventId)).size).toBe(all.length);
      expect(all.at(-1)!.position).toBe(`${head.commit}:${head.prepare}`);
      const positions = all.map((line) => BigInt(line.position.split(':')[0]!));
      expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(Object.keys(all[0]!).sort()).toEqual([
        'createdAt',
        'data',
        'eventId',
        'metadata',
        'position',
        'streamId',
        'streamPosition',
        'type',
      ]);
    });

    it("filters by owner: the account, the assistant, its conversations (a visitor's too) — none of another owner's", async () => {
      const lines = await exported({ ownerId: dana.accountId });
      const types = new Set(lines.map((line) => line.type));
      for (const type of [
        'AccountRegistered',
        'AssistantCreated',
        'ThreadStarted',
        'MessagePosted',
        'RunRequested',
        'RunCompleted',
      ])
        expect(types, type).toContain(type);
      expect(lines.filter((line) => line.type === 'ThreadStarted')).toHaveLength(2);
      expect(
        lines
          .filter((line) => line.type === 'MessagePosted' && line.data.role === 'user')
          .map((line) => shown(line.data.text)),
      ).toEqual(['sealed', 'sealed']);
      const text = JSON.stringify(lines);
      expect(text).not.toContain('Sourdough today?');
      expect(text).not.toContain('Gift cards');
      expect(text).not.toContain(noa.accountId);
      const byAssistant = await exported({ assistantId: danaAssistantId, types: ['MessagePosted'] });
      expect(byAssistant).toHaveLength(4);
    });

    it('filters by event types and by time (the events’ own time, both ends included)', async () => {
      const completions = await exported({ types: ['RunCompleted', 'FeedbackGiven'] });
      expect(new Set(completions.map((line) => line.type))).toEqual(new Set(['RunCompleted']));
      const secondDay = await exported({
        from: new Date('2030-05-02T00:00:00.000Z'),
        to: new Date('2030-05-02T23:59:59.999Z'),
        types: ['MessagePosted'],
      });
      expect(secondDay.filter((line) => line.data.role === 'user').map((line) => line.data.messageId)).toHaveLength(2);
      expect(secondDay.every((line) => line.metadata.timestamp.startsWith('2030-05-02'))).toBe(true);
      expect(await exported({ to: new Date('2000-01-01T00:00:00.000Z') })).toEqual([]);
    });

    // Three export processes start one after another: more than the one-minute default on a busy machine.
    it('runs as `npm run export -- …` into a file, with its filters', { timeout: 240_000 }, async () => {
      const out = join(dir, 'dana.ndjson');
      const child = startMain('export', h.childEnv, [
        '--owner',
        dana.accountId,
        '--type',
        'MessagePosted,ThreadStarted',
        '--from',
        '2030-05-01',
        '--out',
        out,
      ]);
      expect(await exited(child), child.output()).toBe(0);
      const lines = readFileSync(out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Line);
      // The workers share the harness's clock: the answers are from the same days as their questions.
      expect(lines.map((line) => [line.type, shown(line.data.text)])).toEqual([
        ['ThreadStarted', null],
        ['MessagePosted', 'sealed'],
        ['MessagePosted', 'sealed'],
        ['ThreadStarted', null],
        ['MessagePosted', 'sealed'],
        ['MessagePosted', 'sealed'],
      ]);
      expect(child.output()).toMatch(
        new RegExp(`exported 6 of \\d+ events in [\\d.]+ s to ${out.replace(/[.]/g, '\\.')}`),
      );
      // Without an owner the export reads with COPY: the same lines.
      const starts = join(dir, 'starts.ndjson');
      const byType = startMain('export', h.childEnv, ['--type', 'ThreadStarted', '--out', starts]);
      expect(await exited(byType), byType.output()).toBe(0);
      const started = readFileSync(starts, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Line);
      expect(started).toEqual(
        (await exported({ types: ['ThreadStarted'] })).map((line) =>
          expect.objectContaining({ eventId: line.eventId, data: line.data }),
        ),
      );
      expect(started).toHaveLength(3);
      const bad = startMain('export', h.childEnv, ['--from', 'yesterday']);
      expect(await exited(bad)).toBe(2);
      expect(bad.output()).toContain('--from: not a date: yesterday');
    });

    it('reports progress page by page on the COPY path, up to the head', async () => {
      const copy = createCopyLogReader(h.dbUrl);
      const seen: { read: number; position: bigint }[] = [];
      const result = await exportEvents(
        {
          source: sqlLogSource(createSqlLogReader(h.platform.sql)),
          copy,
          write: () => {},
          copyPageSize: 10,
          onProgress: (p) => seen.push({ read: p.read, position: p.position.prepare }),
        },
        {},
      ).finally(() => copy.close());
      const head = await h.platform.eventStore.headPosition();
      expect(seen.length).toBe(Math.ceil(result.read / 10));
      expect(seen.map((p) => p.read)).toEqual(seen.map((_, i) => Math.min((i + 1) * 10, result.read)));
      expect(seen.at(-1)!.position).toBe(head.prepare);
      expect(result.written).toBe(result.read);
    });

    it('draws a progress bar from the share of the log read', () => {
      const line = progressLine(
        {
          read: 250_000,
          written: 1200,
          position: { commit: 250n, prepare: 250n },
          head: { commit: 1000n, prepare: 1000n },
        },
        2000,
        20,
      );
      expect(line).toBe('[#####---------------] 25% · 250,000 read · 1,200 written · 125,000 events/s');
    });
  },
);
