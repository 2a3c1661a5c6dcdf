import type { KnowledgeFileUploaded } from '@kesher/contracts';
import { knowledgeQueries } from '@kesher/projections/knowledge/knowledge.queries';
import { heldBy, type BlobStore } from '../platform/blobs/blob-store.port.js';
import type { SqlExecutor } from '../platform/sql/sql.port.js';
import { createIngestFile, type IngestOutcome } from './ingest/ingest-file.js';
import { extractionSandboxDefaults, type ExtractionSandboxOptions } from './limits.js';
import { createExtractionPool, type ExtractionPoolOptions } from './sandbox/extraction-pool.js';
import type { Embedder } from './embeddings/embedder.port.js';
import { createEmbeddingIndexer } from './embeddings/embedding-indexer.js';
import { createVectorIndex } from './embeddings/vector-index.js';
import { createHybridRetrieve } from './search/hybrid-retrieve.js';
import { retrieveWithCurated, type RetrievedPassage } from './search/retrieve.js';
import { createCuratedLookup, curatedPassage } from './curated/curated-lookup.js';
import type { CuratedMatch } from './curated/curated-match.js';

export interface KnowledgeServiceDeps {
  readDb: SqlExecutor;
  blobs: BlobStore;
  /** The extraction sandbox's size and caps (EXTRACT_* in the configuration); defaults in limits.ts. */
  extraction?: Partial<ExtractionSandboxOptions> & Pick<ExtractionPoolOptions, 'onWorkerLost'>;
  /**
   * An embeddings provider (OPENAI_EMBEDDING_MODEL): passages get vectors and retrieval is hybrid. Without
   * one, retrieval is full-text alone, exactly as before.
   */
  embeddings?: { embedder: Embedder; batchSize?: number; idleMs?: number; onError?: (error: unknown) => void };
}

/**
 * Everything the composition root needs from the knowledge module, in one call: the read side (files,
 * their text, storage, retrieval) over the read-model database, and the ingest step for the worker,
 * which reads files in the extraction sandbox (worker threads with a memory cap and a time limit). The
 * sandbox starts its threads on the first file, so a process that only serves reads never has any;
 * `close` ends them. The projection itself is registered in @kesher/projections/registry.
 */
export function createKnowledgeService(deps: KnowledgeServiceDeps) {
  const queries = knowledgeQueries(deps.readDb);
  const sandbox = createExtractionPool({
    poolSize: deps.extraction?.poolSize ?? extractionSandboxDefaults.poolSize,
    maxMemoryMb: deps.extraction?.maxMemoryMb ?? extractionSandboxDefaults.maxMemoryMb,
    timeLimitMs: deps.extraction?.timeLimitMs ?? extractionSandboxDefaults.timeLimitMs,
    onWorkerLost: deps.extraction?.onWorkerLost,
  });
  const embeddings = deps.embeddings;
  const hybrid =
    embeddings && createHybridRetrieve({ db: deps.readDb, embedder: embeddings.embedder, onError: embeddings.onError });
  const curated = createCuratedLookup(deps.readDb);
  return {
    reads: queries,
    // What a file's ingestion stores (its text, its passages) is held by that file: deleting it frees them.
    ingest: ((uploaded) =>
      createIngestFile({ blobs: heldBy(deps.blobs, uploaded.fileId), read: sandbox.read })(uploaded)) as (
      uploaded: KnowledgeFileUploaded,
    ) => Promise<IngestOutcome>,
    /**
     * The passages for a question, best first, led by the owner's curated answer when one matches (issue 26):
     * both engines see it first and prefer it (chat/builtin.provider.ts, chat/prompt.ts).
     */
    retrieve: async (input: { assistantId: string; question: string; k?: number }): Promise<RetrievedPassage[]> => {
      let passages: RetrievedPassage[];
      let match: CuratedMatch | null;
      if (hybrid) [passages, match] = await Promise.all([hybrid(input), curated(input)]);
      else {
        // Full text alone: the passages and the Q&A come in one statement.
        const found = await retrieveWithCurated(deps.readDb, input);
        passages = found.passages;
        match = found.curated
          ? curated.matchIn(input.assistantId, found.curated, input.question)
          : await curated(input);
      }
      return match ? [curatedPassage(match), ...passages] : passages;
    },
    /** The owner's curated answer for a question alone, or null below the match threshold. */
    curatedAnswer: curated,
    /** Gives new passages their vectors (the workers start it); absent without an embeddings provider. */
    embeddingIndexer:
      embeddings &&
      createEmbeddingIndexer({
        embedder: embeddings.embedder,
        index: createVectorIndex(deps.readDb),
        batchSize: embeddings.batchSize,
        idleMs: embeddings.idleMs,
        onError: embeddings.onError,
      }),
    /** The sandbox's counts (workers, files reading and waiting, workers lost to memory or time). */
    sandbox: { stats: sandbox.stats },
    close: () => sandbox.close(),
  };
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
