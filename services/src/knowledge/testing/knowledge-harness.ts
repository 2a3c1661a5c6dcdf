import type { KnowledgeFileKind, KnowledgeFileUploaded, RecordedEvent } from '@kesher/contracts';
import { curatedAnswersProjection } from '@kesher/projections/curated-answers/curated-answers.projection';
import { knowledgeProjection, readBlobFromReadModel } from '@kesher/projections/knowledge/knowledge.projection';
import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';
import { createSqlBlobStore } from '../../platform/blobs/sql.blob-store.js';
import { prepareReadModel } from '../../platform/projections/projection-runner.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { createIngestFile, type IngestOutcome } from '../ingest/ingest-file.js';

/**
 * The knowledge pipeline on one database, driven the way the platform drives it: the SQL blob store,
 * the ingest step, and the projection applied inside a transaction exactly as the projection runner
 * does (one batch, one transaction). Tests, the retrieval evaluation and the benchmark share it.
 */
export async function createKnowledgeHarness(sql: Sql) {
  const blobs: BlobStore = await createSqlBlobStore({ sql });
  const projection = knowledgeProjection({ readBlob: readBlobFromReadModel });
  await sql.transaction((tx) => prepareReadModel(tx, projection, false));
  // The knowledge service also reads the owners' curated answers (issue 26), led by them when one matches.
  await sql.transaction((tx) => prepareReadModel(tx, curatedAnswersProjection, false));
  const ingest = createIngestFile({ blobs });
  let position = 0n;
  const history: RecordedEvent[] = [];

  function record<Data extends { fileId: string }>(type: string, data: Data, at = new Date()): RecordedEvent {
    position++;
    return {
      streamId: `knowledgefile-${data.fileId}`,
      streamPosition: 0n,
      position: { commit: position, prepare: position },
      type,
      data,
      metadata: {
        eventId: randomUUID(),
        correlationId: 'test',
        causationId: 'test',
        actor: { kind: 'system', id: 'test' },
        timestamp: at.toISOString(),
        schemaVersion: 1,
      },
      createdAt: at,
    };
  }

  async function apply(...events: RecordedEvent[]) {
    history.push(...events);
    await sql.transaction((tx) => projection.apply(tx, events));
  }

  return {
    sql,
    blobs,
    projection,
    record,
    apply,
    /** Every event applied so far, for replays. */
    history: () => [...history],

    /** Stores the bytes, records the upload, runs ingestion and records its outcome. */
    async addFile(input: {
      fileId?: string;
      assistantId: string;
      ownerId?: string;
      filename: string;
      kind: KnowledgeFileKind;
      bytes: Uint8Array;
      sourceUrl?: string | null;
      at?: Date;
    }) {
      const { sha256 } = await blobs.put(input.bytes);
      const uploaded: KnowledgeFileUploaded = {
        fileId: input.fileId ?? `file-${randomUUID().replaceAll('-', '')}`,
        assistantId: input.assistantId,
        ownerId: input.ownerId ?? 'owner-1',
        filename: input.filename,
        kind: input.kind,
        bytes: input.bytes.byteLength,
        contentSha256: sha256,
        sourceUrl: input.sourceUrl ?? null,
      };
      await apply(record('KnowledgeFileUploaded', uploaded, input.at));
      const outcome: IngestOutcome = await ingest(uploaded);
      await apply(
        'ingested' in outcome
          ? record('KnowledgeFileIngested', outcome.ingested, input.at)
          : record('KnowledgeFileIngestionFailed', outcome.failed, input.at),
      );
      return { uploaded, outcome };
    },

    async deleteFile(fileId: string, assistantId: string) {
      await apply(record('KnowledgeFileDeleted', { fileId, assistantId }));
    },

    /** Drops everything and applies the whole history again, as `npm run replay -- knowledge` would. */
    async replay() {
      await sql.transaction(async (tx) => {
        await prepareReadModel(tx, projection, true);
        await projection.apply(tx, history);
      });
    },

    /** The read model's content, table by table, in a stable order (to compare a replay with the original). */
    async snapshot(): Promise<Record<string, unknown[]>> {
      const snapshot: Record<string, unknown[]> = {};
      for (const table of projection.tables) {
        const { rows } = await sql.query(`SELECT to_jsonb(t) AS row FROM ${table} t ORDER BY to_jsonb(t)::text`);
        snapshot[table] = rows.map((row) => (row as { row: unknown }).row);
      }
      return snapshot;
    },
  };
}

export type KnowledgeHarness = Awaited<ReturnType<typeof createKnowledgeHarness>>;
