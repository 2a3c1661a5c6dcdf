import type { KnowledgeFileIngested, KnowledgeFileIngestionFailed, KnowledgeFileUploaded } from '@kesher/contracts';
import { performance } from 'node:perf_hooks';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';
import { chunkSections } from '../chunk/chunk-sections.js';
import { ExtractionError, extractText } from '../extract/extract-text.js';

/** What the ingest worker records on the file's stream: exactly one of the two outcome events. */
export type IngestOutcome = { ingested: KnowledgeFileIngested } | { failed: KnowledgeFileIngestionFailed };

export interface IngestFileDeps {
  blobs: Pick<BlobStore, 'get' | 'put'>;
  /** Milliseconds, for elapsedMs; injectable so tests can pin it. */
  now?: () => number;
}

const missingUpload = 'The uploaded file is no longer available. Upload it again.';

/**
 * Turns an uploaded file into knowledge: bytes from the blob store → clean text → passages, both stored
 * back as content-addressed blobs, and the outcome event to record. It is deterministic: the same upload
 * gives the same outcome (only elapsedMs differs) and the same blobs, so a redelivered message changes
 * nothing. A file that cannot be read is an outcome (KnowledgeFileIngestionFailed with the owner-facing
 * reason); only infrastructure failures (the blob store down) throw, so that the message is retried.
 */
export function createIngestFile(deps: IngestFileDeps) {
  const now = deps.now ?? (() => performance.now());
  return async function ingestFile(uploaded: KnowledgeFileUploaded): Promise<IngestOutcome> {
    const started = now();
    const failed = (reason: string): IngestOutcome => ({ failed: { fileId: uploaded.fileId, assistantId: uploaded.assistantId, reason } });

    const bytes = await deps.blobs.get(uploaded.contentSha256);
    if (!bytes) return failed(missingUpload);

    let extracted;
    try {
      extracted = await extractText(bytes, uploaded.kind, uploaded.filename);
    } catch (error) {
      if (error instanceof ExtractionError) return failed(error.reason);
      throw error;
    }

    const chunks = chunkSections(extracted.sections);
    const encoder = new TextEncoder();
    const text = await deps.blobs.put(encoder.encode(extracted.text));
    const chunkList = await deps.blobs.put(encoder.encode(JSON.stringify(chunks)));
    return {
      ingested: {
        fileId: uploaded.fileId,
        assistantId: uploaded.assistantId,
        textSha256: text.sha256,
        chunksSha256: chunkList.sha256,
        chunkCount: chunks.length,
        characters: extracted.text.length,
        language: extracted.language,
        elapsedMs: Math.max(0, Math.round(now() - started)),
      },
    };
  };
}
