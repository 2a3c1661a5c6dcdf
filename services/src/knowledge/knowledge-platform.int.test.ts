import { streamIds, type KnowledgeFileUploaded } from '@kesher/contracts';
import { knowledgeQueries } from '@kesher/projections/knowledge/knowledge.queries';
import { retrieve } from './search/retrieve.js';
import { allProjections } from '@kesher/projections/registry';
import { describe, expect, it } from 'vitest';
import { knowledgeFileDecider } from '../domain/knowledge-file/knowledge-file.decider.js';
import { createSqlBlobStore } from '../platform/blobs/sql.blob-store.js';
import { createCommandHandler } from '../platform/commands/command-handler.js';
import { withEventSchemas } from '../platform/event-store/schema-checked.event-store.js';
import { createSqlEventStore } from '../platform/event-store/sql-event-store.js';
import { createProjectionRunner } from '../platform/projections/projection-runner.js';
import { createPgSql } from '../platform/sql/pg.sql.js';
import type { Sql } from '../platform/sql/sql.port.js';
import { createTestDatabase, postgresAvailability, createTestPglite } from '../testing/test-database.js';
import { createIngestFile } from './ingest/ingest-file.js';

/**
 * The registered knowledge projection run by the real projection runner: the events go through the
 * event store and the decider, and the projection reads its blobs inside the runner's transaction —
 * which on PGlite (a single backend) would hang if it read them any other way.
 */
async function uploadIngestAndSearch(sql: Sql) {
  const eventStore = withEventSchemas(await createSqlEventStore({ sql }));
  const runner = createProjectionRunner({ eventStore, sql, projections: allProjections });
  const handle = createCommandHandler({ eventStore });
  const blobs = await createSqlBlobStore({ sql });
  await runner.start();
  try {
    const bytes = new TextEncoder().encode(
      '# Opening hours\n\nהחנות פתוחה בימי ראשון עד חמישי, ובשישי עד הצהריים.\n\nThe shop closes at 19:00 on weekdays.',
    );
    const stored = await blobs.put(bytes);
    const uploaded: KnowledgeFileUploaded = {
      fileId: 'file-hours',
      assistantId: 'asst-1',
      ownerId: 'owner-1',
      filename: 'hours.md',
      kind: 'md',
      bytes: bytes.byteLength,
      contentSha256: stored.sha256,
      sourceUrl: null,
    };
    const context = { actor: { kind: 'system' as const, id: 'test' }, correlationId: 'test', now: new Date() };
    await handle(
      knowledgeFileDecider,
      streamIds.knowledgeFile(uploaded.fileId),
      { type: 'UploadKnowledgeFile', data: uploaded },
      context,
    );
    const outcome = await createIngestFile({ blobs })(uploaded);
    const recorded = await handle(
      knowledgeFileDecider,
      streamIds.knowledgeFile(uploaded.fileId),
      { type: 'RecordIngestion', data: outcome },
      context,
    );
    expect(
      await runner.waitForPosition(recorded.appended!.position, { projections: ['knowledge'], timeoutMs: 30_000 }),
    ).toBe(true);

    expect(await knowledgeQueries(sql).getFile('owner-1', 'file-hours')).toMatchObject({
      status: 'ready',
      language: 'he',
    });
    const passages = await retrieve(sql, { assistantId: 'asst-1', question: 'מתי החנות פתוחה בשישי?' });
    expect(passages[0]).toMatchObject({ fileId: 'file-hours', section: 'Opening hours' });
  } finally {
    await runner.stop();
    await eventStore.close();
  }
}

const gate = await postgresAvailability();

describe('knowledge through the projection runner', () => {
  it('works on PGlite, where blobs and read models share one backend', async () => {
    const sql = await createTestPglite();
    try {
      await uploadIngestAndSearch(sql);
    } finally {
      await sql.close();
    }
  });

  it.skipIf(!gate.available)(`works on Postgres${gate.available ? '' : ` (not run: ${gate.reason})`}`, async () => {
    const db = await createTestDatabase();
    const sql = createPgSql({ connectionString: db.url });
    try {
      await uploadIngestAndSearch(sql);
    } finally {
      await sql.close();
      await db.drop();
    }
  });
});
