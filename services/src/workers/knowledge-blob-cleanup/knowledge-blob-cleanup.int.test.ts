import { streamIds } from '@kesher/contracts';
import { knowledgeProjection, readBlobFromReadModel } from '@kesher/projections/knowledge/knowledge.projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeFileDecider } from '../../domain/knowledge-file/knowledge-file.decider.js';
import { createSqlBlobStore } from '../../platform/blobs/sql.blob-store.js';
import { createSqlBus } from '../../platform/bus/sql.bus.js';
import type { MessageBus } from '../../platform/bus/message-bus.port.js';
import { createCommandHandler, type CommandContext } from '../../platform/commands/command-handler.js';
import { withEventSchemas } from '../../platform/event-store/schema-checked.event-store.js';
import { createSqlEventStore } from '../../platform/event-store/sql-event-store.js';
import { rebuildTogether } from '../../platform/projections/rebuild-together.js';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createRelay } from '../relay/relay.js';
import { createKnowledgeBlobCleanupWorker } from './knowledge-blob-cleanup.worker.js';

const gate = await postgresAvailability();
const within = { timeout: 60_000, interval: 25 };
const context: CommandContext = { actor: { kind: 'system', id: 'test' }, correlationId: 'test', now: new Date() };

/**
 * #25 item 4: a deleted (or unreadable) knowledge file's blobs are freed by a worker through the blob
 * store port, not by the knowledge read model; a replay of the read model leaves the blobs as they are.
 * Real parts: Postgres, the SQL event store, the relay and the in-process bus, the SQL blob store.
 */
describe.skipIf(!gate.available)(`knowledge blob cleanup${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;
  let bus: MessageBus;
  let eventStore: Awaited<ReturnType<typeof createSqlEventStore>>;
  let handle: ReturnType<typeof createCommandHandler>;
  let blobs: Awaited<ReturnType<typeof createSqlBlobStore>>;
  let relay: ReturnType<typeof createRelay>;
  let worker: ReturnType<typeof createKnowledgeBlobCleanupWorker>;
  const knowledge = knowledgeProjection({ readBlob: readBlobFromReadModel });

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = createPgSql({ connectionString: db.url });
    eventStore = withEventSchemas(await createSqlEventStore({ sql }));
    handle = createCommandHandler({ eventStore });
    blobs = await createSqlBlobStore({ sql });
    bus = await createSqlBus({ sql });
    relay = createRelay({ eventStore, bus, sql });
    worker = createKnowledgeBlobCleanupWorker({ bus, blobs, groupId: 'blob-cleanup-test' });
  });
  afterAll(async () => {
    await relay?.stop();
    await worker?.stop();
    await bus?.close();
    await eventStore?.close();
    await sql?.close();
    await db?.drop();
  });

  /** An owner's upload as the files route makes it: the bytes held by the file's id, then the command. */
  async function upload(fileId: string, text: string) {
    const bytes = new TextEncoder().encode(text);
    const stored = await blobs.put(bytes, { holder: fileId });
    await handle(
      knowledgeFileDecider,
      streamIds.knowledgeFile(fileId),
      {
        type: 'UploadKnowledgeFile',
        data: {
          fileId,
          assistantId: 'asst-1',
          ownerId: 'owner-1',
          filename: `${fileId}.txt`,
          kind: 'txt',
          bytes: bytes.byteLength,
          contentSha256: stored.sha256,
          sourceUrl: null,
        },
      },
      context,
    );
    return stored.sha256;
  }
  const remove = (fileId: string) =>
    handle(
      knowledgeFileDecider,
      streamIds.knowledgeFile(fileId),
      { type: 'DeleteKnowledgeFile', data: { fileId, ownerId: 'owner-1' } },
      context,
    );
  const fail = (fileId: string) =>
    handle(
      knowledgeFileDecider,
      streamIds.knowledgeFile(fileId),
      { type: 'RecordIngestion', data: { failed: { fileId, assistantId: 'asst-1', reason: 'The PDF is locked' } } },
      context,
    );
  /** Every blob and every reference, as rows: what "untouched" is compared on. */
  const blobTables = async () => ({
    blobs: (await sql.query(`SELECT sha256, size FROM blobs ORDER BY sha256`)).rows,
    holds: (await sql.query(`SELECT sha256, holder FROM blob_holds ORDER BY sha256, holder`)).rows,
  });
  const exists = async (sha256: string) => (await blobs.get(sha256)) !== undefined;
  const replayKnowledge = () => rebuildTogether({ eventStore, sql, projections: [knowledge] });

  it('frees a deleted or failed file’s blobs, keeps bytes another file holds, and a replay touches no blob', async () => {
    const own = await upload('file-own', 'Opening hours: Sunday to Thursday, 8 to 19.');
    const shared = await upload('file-shared-a', 'Delivery to Haifa on Fridays costs 25 shekels.');
    await upload('file-shared-b', 'Delivery to Haifa on Fridays costs 25 shekels.');
    const locked = await upload('file-locked', 'pretend these are the bytes of a locked PDF');
    await remove('file-own');
    await remove('file-shared-a');
    await fail('file-locked');

    // The read model, rebuilt from the log before the worker ran: the files are gone or failed in the
    // list, and every blob is exactly where it was (a replay is not a deletion).
    const before = await blobTables();
    await replayKnowledge();
    expect(await blobTables()).toEqual(before);
    const { rows: listed } = await sql.query<{ id: string; status: string }>(
      `SELECT id, status FROM knowledge_files ORDER BY id`,
    );
    expect(listed).toEqual([
      { id: 'file-locked', status: 'failed' },
      { id: 'file-shared-b', status: 'pending' },
    ]);
    expect([await exists(own), await exists(shared), await exists(locked)]).toEqual([true, true, true]);

    // The worker frees them: the deleted file's own bytes and the failed file's go; the bytes the other
    // copy still holds stay, held by it alone.
    await worker.start();
    await relay.start();
    await expect.poll(() => exists(own), within).toBe(false);
    await expect.poll(() => exists(locked), within).toBe(false);
    expect(await exists(shared)).toBe(true);
    const { rows: holders } = await sql.query<{ holder: string }>(`SELECT holder FROM blob_holds WHERE sha256 = $1`, [
      shared,
    ]);
    expect(holders).toEqual([{ holder: 'file-shared-b' }]);

    // And another replay, after the cleanup, changes nothing in the blob store either.
    const after = await blobTables();
    await replayKnowledge();
    expect(await blobTables()).toEqual(after);

    // The last copy deleted: its bytes go too.
    await remove('file-shared-b');
    await expect.poll(() => exists(shared), within).toBe(false);
  });
});
