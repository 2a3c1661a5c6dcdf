import type { KnowledgeFileKind } from '@kesher/contracts';
import { chunkSections } from '../chunk/chunk-sections.js';
import { ExtractionError, extractText } from '../extract/extract-text.js';

/** An uploaded file to read: its bytes and what the upload said about it. `ownerId` is for fair scheduling. */
export interface ReadFileInput {
  bytes: Uint8Array;
  kind: KnowledgeFileKind;
  filename: string;
  ownerId: string;
}

/**
 * What reading a file gave: its clean text and passage list, already encoded as the blobs ingest stores
 * (UTF-8 text, JSON chunk list), so the thread that stores them has nothing left to compute; or the
 * reason, for the owner, that it could not be read.
 */
export type ReadFileResult =
  | {
      read: {
        text: Uint8Array;
        chunks: Uint8Array;
        chunkCount: number;
        characters: number;
        language: 'he' | 'en' | 'other';
      };
    }
  | { failed: string };

/** Port: reads a file somewhere (the extraction sandbox in production, this thread in tools). Never throws for a bad file. */
export type ReadFile = (input: ReadFileInput) => Promise<ReadFileResult>;

/**
 * Extraction and chunking, in the calling thread. The sandbox's workers run exactly this; called
 * directly it has no memory cap or time limit, so it is for trusted input (tests, fixtures, tools).
 */
export async function readFileHere(input: Omit<ReadFileInput, 'ownerId'>): Promise<ReadFileResult> {
  let extracted;
  try {
    extracted = await extractText(input.bytes, input.kind, input.filename);
  } catch (error) {
    if (error instanceof ExtractionError) return { failed: error.reason };
    throw error;
  }
  const chunks = chunkSections(extracted.sections);
  const encoder = new TextEncoder();
  return {
    read: {
      text: encoder.encode(extracted.text),
      chunks: encoder.encode(JSON.stringify(chunks)),
      chunkCount: chunks.length,
      characters: extracted.text.length,
      language: extracted.language,
    },
  };
}
