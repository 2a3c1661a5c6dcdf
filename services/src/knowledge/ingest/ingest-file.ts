import type { KnowledgeFileIngested, KnowledgeFileIngestionFailed, KnowledgeFileUploaded } from '@kesher/contracts';
import { performance } from 'node:perf_hooks';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';
import { readFileHere, type ReadFile } from './read-file.js';

/** What the ingest worker records on the file's stream: exactly one of the two outcome events. */
export type IngestOutcome = { ingested: KnowledgeFileIngested } | { failed: KnowledgeFileIngestionFailed };

export interface IngestFileDeps {
  blobs: Pick<BlobStore, 'get' | 'put'>;
  /**
   * Where files are read. Composition roots pass the extraction sandbox (createKnowledgeService does);
   * without it the file is read in this thread, which only trusted input (tests, tools) may be.
   */
  read?: ReadFile;
  /** Milliseconds, for elapsedMs; injectable so tests can pin it. */
  now?: () => number;
}

const missingUpload = 'The uploaded file is no longer available. Upload it again.';

/**
 * Turns an uploaded file into knowledge: bytes from the blob store → clean text → passages, both stored
 * back as content-addressed blobs, and the outcome event to record. It is deterministic: the same upload
 * gives the same outcome (only elapsedMs differs) and the same blobs, so a redelivered message changes
 * nothing. A file that cannot be read is an outcome (KnowledgeFileIngestionFailed with the owner-facing
 * reason), including one that exhausts the sandbox's memory or time; only infrastructure failures (the
 * blob store down, the sandbox closed) throw, so that the message is retried.
 */
export function createIngestFile(deps: IngestFileDeps) {
  const now = deps.now ?? (() => performance.now());
  const read = deps.read ?? readFileHere;
  return async function ingestFile(uploaded: KnowledgeFileUploaded): Promise<IngestOutcome> {
    const started = now();
    const failed = (reason: string): IngestOutcome => ({
      failed: { fileId: uploaded.fileId, assistantId: uploaded.assistantId, reason },
    });

    const bytes = await deps.blobs.get(uploaded.contentSha256);
    if (!bytes) return failed(missingUpload);

    const result = await read({ bytes, kind: uploaded.kind, filename: uploaded.filename, ownerId: uploaded.ownerId });
    if ('failed' in result) return failed(result.failed);

    const text = await deps.blobs.put(result.read.text);
    const chunkList = await deps.blobs.put(result.read.chunks);
    return {
      ingested: {
        fileId: uploaded.fileId,
        assistantId: uploaded.assistantId,
        textSha256: text.sha256,
        chunksSha256: chunkList.sha256,
        chunkCount: result.read.chunkCount,
        characters: result.read.characters,
        language: result.read.language,
        elapsedMs: Math.max(0, Math.round(now() - started)),
      },
    };
  };
}
