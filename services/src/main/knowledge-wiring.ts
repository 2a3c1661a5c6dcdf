// TEMPORARY scaffolding until the knowledge module lands; replaced before commit.
import type { KnowledgeReads } from '../api/routes/files/files.routes.js';
import type { BlobStore } from '../platform/blobs/blob-store.port.js';
import type { Sql } from '../platform/sql/sql.port.js';
import type { IngestOutcome } from '../workers/ingest/ingest.worker.js';
import type { KnowledgeFileUploaded } from '@kesher/contracts';

export async function createKnowledgeWiring(_deps: { sql: Sql; blobs: BlobStore }) {
  const reads: KnowledgeReads = {
    listFiles: async () => [],
    getFile: async () => undefined,
    fileText: async () => undefined,
    storageUsed: async () => 0,
    findByContent: async () => undefined,
  };
  return { reads, ingest: async (u: KnowledgeFileUploaded): Promise<IngestOutcome> => ({ failed: { fileId: u.fileId, assistantId: u.assistantId, reason: 'x' } }) };
}
