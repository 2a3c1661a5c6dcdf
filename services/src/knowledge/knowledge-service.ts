import type { KnowledgeFileUploaded } from '@kesher/contracts';
import { knowledgeQueries } from '@kesher/projections/knowledge/knowledge.queries';
import { heldBy, type BlobStore } from '../platform/blobs/blob-store.port.js';
import type { SqlExecutor } from '../platform/sql/sql.port.js';
import { createIngestFile, type IngestOutcome } from './ingest/ingest-file.js';
import { retrieve, type RetrievedPassage } from './search/retrieve.js';

/**
 * Everything the composition root needs from the knowledge module, in one call: the read side (files,
 * their text, storage, retrieval) over the read-model database, and the ingest step for the worker.
 * The projection itself is registered in @kesher/projections/registry.
 */
export function createKnowledgeService(deps: { readDb: SqlExecutor; blobs: BlobStore }) {
  const queries = knowledgeQueries(deps.readDb);
  return {
    reads: queries,
    // What a file's ingestion stores (its text, its passages) is held by that file: deleting it frees them.
    ingest: ((uploaded) => createIngestFile({ blobs: heldBy(deps.blobs, uploaded.fileId) })(uploaded)) as (uploaded: KnowledgeFileUploaded) => Promise<IngestOutcome>,
    retrieve: (input: { assistantId: string; question: string; k?: number }): Promise<RetrievedPassage[]> => retrieve(deps.readDb, input),
  };
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
