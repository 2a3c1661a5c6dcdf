import { randomUUID } from 'node:crypto';
import { streamIds, type KnowledgeFileKind, type KnowledgeFileUploaded } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { knowledgeFileDecider } from '../../domain/knowledge-file/knowledge-file.decider.js';
import { createKnowledgeService } from '../../knowledge/knowledge-service.js';
import { createSqlBlobStore } from '../../platform/blobs/sql.blob-store.js';
import { createKafkaBus } from '../../platform/bus/kafka.bus.js';
import type { MessageBus } from '../../platform/bus/message-bus.port.js';
import { createSqlBus } from '../../platform/bus/sql.bus.js';
import { createCommandHandler, type CommandContext } from '../../platform/commands/command-handler.js';
import { withEventSchemas } from '../../platform/event-store/schema-checked.event-store.js';
import { createSqlEventStore } from '../../platform/event-store/sql-event-store.js';
import { createMetrics } from '../../platform/metrics/metrics.js';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { kafkaAvailability, kafkaBrokers } from '../../testing/kafka.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createRelay } from '../relay/relay.js';
import { topicFor } from '../../platform/bus/relayed-event.js';
import { createIngestWorker, unreadableFileReason, type IngestWorkerDeps } from './ingest.worker.js';

const postgres = await postgresAvailability();
const kafka = await kafkaAvailability();
const within = { timeout: 60_000, interval: 25 };

type BusKind = 'in-process' | 'kafka';

/**
 * The ingest worker as the composition roots run it — the real knowledge ingest, event store, relay and
 * bus on a fresh Postgres database — with two seams a test may use: `ingest` wraps the real one, and
 * every outcome recorded is noted in the order it was recorded.
 */
async function ingestPlatform(
  kind: BusKind,
  options: { wrapIngest?: (real: IngestWorkerDeps['ingest']) => IngestWorkerDeps['ingest'] } = {},
) {
  const db = await createTestDatabase();
  const sql: Sql = createPgSql({ connectionString: db.url });
  const eventStore = withEventSchemas(await createSqlEventStore({ sql }));
  const handle = createCommandHandler({ eventStore });
  const blobs = await createSqlBlobStore({ sql });
  const metrics = createMetrics();
  const deliveries = { maxAttempts: 2, metrics, log: () => {}, onHandlerError: () => {} };
  const bus: MessageBus =
    kind === 'kafka'
      ? createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-ingest-test', sql, deliveries })
      : await createSqlBus({ sql, deliveries });
  const relay = createRelay({ eventStore, bus, sql });
  const knowledge = createKnowledgeService({ readDb: sql, blobs });
  const realIngest = knowledge.ingest;
  const recorded: { fileId: string; outcome: 'ingested' | 'failed'; reason?: string }[] = [];
  const groupId = `ingest-test-${randomUUID().slice(0, 8)}`;
  const worker = createIngestWorker({
    bus,
    eventStore,
    groupId,
    concurrency: 3,
    ingest: options.wrapIngest ? options.wrapIngest(realIngest) : realIngest,
    blobs,
    handle: async (decider, streamId, command, context) => {
      const result = await handle(decider, streamId, command, context);
      const data = (command as { data: { ingested?: { fileId: string }; failed?: { fileId: string; reason: string } } })
        .data;
      if (result.events.length > 0)
        recorded.push(
          data.ingested
            ? { fileId: data.ingested.fileId, outcome: 'ingested' }
            : { fileId: data.failed!.fileId, outcome: 'failed', reason: data.failed!.reason },
        );
      return result;
    },
  });
  const context: CommandContext = { actor: { kind: 'system', id: 'test' }, correlationId: 'test', now: new Date() };

  return {
    bus,
    metrics,
    groupId,
    recorded,
    blobs,
    /** The blobs `holder` still refers to. */
    async held(holder: string) {
      const { rows } = await sql.query<{ sha256: string }>(`SELECT sha256 FROM blob_holds WHERE holder = $1`, [holder]);
      return rows.map((row) => row.sha256);
    },
    /** The owner deletes the file, through the same command the files route sends. */
    async remove(fileId: string, ownerId: string) {
      await handle(
        knowledgeFileDecider,
        streamIds.knowledgeFile(fileId),
        { type: 'DeleteKnowledgeFile', data: { fileId, ownerId } },
        context,
      );
    },
    /** An owner's upload, through the same command the files route sends. */
    async upload(ownerId: string, filename: string, text: string, kind: KnowledgeFileKind = 'md') {
      const bytes = new TextEncoder().encode(text);
      const stored = await blobs.put(bytes);
      const uploaded: KnowledgeFileUploaded = {
        fileId: `file-${randomUUID()}`,
        assistantId: `asst-${ownerId}`,
        ownerId,
        filename,
        kind,
        bytes: bytes.byteLength,
        contentSha256: stored.sha256,
        sourceUrl: null,
      };
      await handle(
        knowledgeFileDecider,
        streamIds.knowledgeFile(uploaded.fileId),
        { type: 'UploadKnowledgeFile', data: uploaded },
        context,
      );
      return uploaded.fileId;
    },
    async status(fileId: string) {
      const events = await eventStore.readStream(streamIds.knowledgeFile(fileId));
      return events.reduce(
        (s, e) => knowledgeFileDecider.evolve(s, { type: e.type, data: e.data } as never),
        knowledgeFileDecider.initialState(),
      ).status;
    },
    async lastEvent(fileId: string) {
      return (await eventStore.readStream(streamIds.knowledgeFile(fileId))).at(-1);
    },
    async start() {
      await worker.start();
      await relay.start();
    },
    async close() {
      await relay.stop();
      await worker.stop();
      await knowledge.close();
      await bus.close();
      await eventStore.close();
      await sql.close();
      await db.drop();
    },
  };
}

/** A handbook of a few dozen kilobytes, below every limit. */
function longText(owner: string, file: number, characters = 50_000) {
  const parts: string[] = [`# ${owner}'s handbook, part ${file}`];
  for (let i = 0, length = 0; length < characters; i++) {
    const paragraph = `Rule ${i} of part ${file}: orders placed before noon ship the same day, returns are accepted within fourteen days with the receipt, and gift cards never expire.`;
    parts.push(i % 6 === 0 ? `## Section ${i}\n\n${paragraph}` : paragraph);
    length += paragraph.length + 2;
  }
  return parts.join('\n\n');
}

const gate = (kind: BusKind) => (kind === 'kafka' ? (postgres.available ? kafka : postgres) : postgres);

describe.each(['in-process', 'kafka'] as const)('the ingest worker on the %s bus', (kind) => {
  const available = gate(kind);
  const describeIf = available.available ? it : it.skip;
  const note = available.available ? '' : ` (not run: ${available.reason})`;

  describeIf(
    `reads another owner's small file while one owner's large files are still being read${note}`,
    { timeout: 120_000 },
    async () => {
      // Owner A's files are read by the real reader, but only once the test lets them: "still being read"
      // is then a state the test holds, not a race against the reader's speed. How many files of each
      // owner are in the reader at once is watched.
      let releaseA!: () => void;
      const aMayFinish = new Promise<void>((resolve) => (releaseA = resolve));
      const reading = new Map<string, number>();
      const most = new Map<string, number>();
      const platform = await ingestPlatform(kind, {
        wrapIngest: (real) => async (uploaded) => {
          const now = (reading.get(uploaded.ownerId) ?? 0) + 1;
          reading.set(uploaded.ownerId, now);
          most.set(uploaded.ownerId, Math.max(most.get(uploaded.ownerId) ?? 0, now));
          try {
            if (uploaded.ownerId === 'owner-a') await aMayFinish;
            return await real(uploaded);
          } finally {
            reading.set(uploaded.ownerId, reading.get(uploaded.ownerId)! - 1);
          }
        },
      });
      try {
        await platform.start();
        const aFiles: string[] = [];
        for (let i = 1; i <= 4; i++)
          aFiles.push(await platform.upload('owner-a', `handbook-${i}.md`, longText('owner-a', i)));
        await expect.poll(() => reading.get('owner-a') ?? 0, within).toBe(1);
        const bFile = await platform.upload(
          'owner-b',
          'hours.md',
          '# Opening hours\n\nWe open at nine and close at five.',
        );

        // B's file is ready while all four of A's are still pending, one of them in the reader.
        await expect.poll(() => platform.status(bFile), { ...within, timeout: 20_000 }).toBe('ready');
        for (const fileId of aFiles) expect(await platform.status(fileId)).toBe('pending');
        expect(reading.get('owner-a')).toBe(1);

        releaseA();
        await expect.poll(() => platform.recorded.length, within).toBe(5);
        for (const fileId of aFiles) expect(await platform.status(fileId)).toBe('ready');
        // One owner never held more than one of the worker's slots.
        expect(most.get('owner-a')).toBe(1);
      } finally {
        releaseA();
        await platform.close();
      }
    },
  );

  describeIf(
    `does so with real large files too, read in the extraction sandbox${note}`,
    { timeout: 180_000 },
    async () => {
      // No hold this time: A's files are slow because they are large (close to the 1,000,000-character
      // limit, seconds each in the sandbox); the wrapper only watches.
      const reading = new Map<string, number>();
      const platform = await ingestPlatform(kind, {
        wrapIngest: (real) => async (uploaded) => {
          reading.set(uploaded.ownerId, (reading.get(uploaded.ownerId) ?? 0) + 1);
          try {
            return await real(uploaded);
          } finally {
            reading.set(uploaded.ownerId, reading.get(uploaded.ownerId)! - 1);
          }
        },
      });
      try {
        await platform.start();
        const aFiles: string[] = [];
        for (let i = 1; i <= 4; i++)
          aFiles.push(await platform.upload('owner-a', `handbook-${i}.md`, longText('owner-a', i, 900_000)));
        await expect.poll(() => reading.get('owner-a') ?? 0, within).toBe(1);
        const bFile = await platform.upload(
          'owner-b',
          'hours.md',
          '# Opening hours\n\nWe open at nine and close at five.',
        );

        await expect.poll(() => platform.status(bFile), within).toBe('ready');
        const pending = (await Promise.all(aFiles.map((fileId) => platform.status(fileId)))).filter(
          (status) => status === 'pending',
        );
        expect(pending.length).toBeGreaterThanOrEqual(2);
        await expect.poll(() => platform.recorded.length, { ...within, timeout: 150_000 }).toBe(5);
        expect(platform.recorded.every((r) => r.outcome === 'ingested')).toBe(true);
      } finally {
        await platform.close();
      }
    },
  );

  describeIf(
    `releases what it stored for a file deleted while it was being read${note}`,
    { timeout: 120_000 },
    async () => {
      // The file is deleted while the real reader holds it; the reader then stores its text and passages
      // under the file's id, after the deletion. Its outcome is refused, and what it stored is released.
      let deleted!: () => void;
      const whenDeleted = new Promise<void>((resolve) => (deleted = resolve));
      let reading!: () => void;
      const whenReading = new Promise<void>((resolve) => (reading = resolve));
      const stored: string[] = [];
      const platform = await ingestPlatform(kind, {
        wrapIngest: (real) => async (uploaded) => {
          if (uploaded.filename !== 'gone.md') return real(uploaded);
          reading();
          await whenDeleted;
          const outcome = await real(uploaded);
          if ('ingested' in outcome) stored.push(outcome.ingested.textSha256, outcome.ingested.chunksSha256);
          return outcome;
        },
      });
      try {
        await platform.start();
        const kept = await platform.upload('owner-a', 'kept.md', '# Kept\n\nThis handbook stays.');
        await expect.poll(() => platform.status(kept), within).toBe('ready');
        const gone = await platform.upload(
          'owner-a',
          'gone.md',
          '# Gone\n\nThis handbook is deleted while it is read.',
        );
        await whenReading;
        await platform.remove(gone, 'owner-a');
        deleted();
        await expect.poll(() => stored.length, within).toBe(2);
        await expect.poll(() => platform.held(gone), within).toEqual([]);
        for (const sha256 of stored) expect(await platform.blobs.get(sha256)).toBeUndefined();
        expect(await platform.status(gone)).toBe('deleted');
        // The file read before keeps what it stored (its text and passages).
        expect(await platform.held(kept)).toHaveLength(2);
      } finally {
        deleted();
        await platform.close();
      }
    },
  );

  describeIf(
    `records a file the bus gave up on as failed, with a reason the owner can act on${note}`,
    { timeout: 120_000 },
    async () => {
      // The reader of one file throws every time (as a crashed extraction would); the others are read for real.
      const platform = await ingestPlatform(kind, {
        wrapIngest: (real) => async (uploaded) => {
          if (uploaded.filename === 'cursed.md') throw new Error('the reader crashed');
          return real(uploaded);
        },
      });
      try {
        const cursed = await platform.upload('owner-a', 'cursed.md', '# Cursed\n\nNobody can read this.');
        const fine = await platform.upload('owner-a', 'fine.md', '# Fine\n\nEveryone can read this.');
        await platform.start();

        await expect.poll(() => platform.status(cursed), within).toBe('failed');
        expect(await platform.lastEvent(cursed)).toMatchObject({
          type: 'KnowledgeFileIngestionFailed',
          data: { fileId: cursed, reason: unreadableFileReason },
        });
        // The owner's next file is not held behind it.
        await expect.poll(() => platform.status(fine), within).toBe('ready');

        const letters = await platform.bus.deadLetters({ groupId: platform.groupId });
        expect(letters).toHaveLength(1);
        expect(letters[0]).toMatchObject({
          key: streamIds.knowledgeFile(cursed),
          attempts: 2,
          reason: 'the reader crashed',
        });
        const parked = await platform.metrics.registry.getSingleMetric('kesher_bus_messages_parked_total')!.get();
        expect(parked.values).toEqual([
          { labels: { group: platform.groupId, topic: topicFor(streamIds.knowledgeFile(cursed)) }, value: 1 },
        ]);
      } finally {
        await platform.close();
      }
    },
  );
});
