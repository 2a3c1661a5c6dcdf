import type { KnowledgeFileKind } from '@kesher/contracts';
import { extractionSandboxDefaults, type ExtractionSandboxOptions } from './limits.js';
import { createExtractionPool } from './sandbox/extraction-pool.js';

/** A document to show as text: what the owner sees of a crawled PDF or DOCX before it becomes a file. */
export interface DocumentTextInput {
  bytes: Uint8Array;
  kind: KnowledgeFileKind;
  filename: string;
  ownerId: string;
}

export interface DocumentTextReader {
  /** The document's clean text, read exactly as ingestion will read it; empty when it cannot be read (no text, damaged, too large). */
  text(input: DocumentTextInput): Promise<string>;
  close(): Promise<void>;
}

/**
 * Reads documents found on the web (the crawl preview's PDFs and DOCX files) in the same extraction
 * sandbox as uploads — untrusted bytes never run through the extractors on the API's event loop. One
 * worker by default: previews are few and a document is read in milliseconds; the thread starts with
 * the first document, so a process that never previews one never has it.
 */
export function createDocumentTextReader(options: Partial<ExtractionSandboxOptions> = {}): DocumentTextReader {
  const pool = createExtractionPool({
    poolSize: options.poolSize ?? 1,
    maxMemoryMb: options.maxMemoryMb ?? extractionSandboxDefaults.maxMemoryMb,
    timeLimitMs: options.timeLimitMs ?? extractionSandboxDefaults.timeLimitMs,
  });
  const decoder = new TextDecoder();
  return {
    async text(input) {
      const result = await pool.read(input);
      return 'read' in result ? decoder.decode(result.read.text) : '';
    },
    close: () => pool.close(),
  };
}
