/**
 * Per-file limits of the knowledge pipeline. Upload size and plan quotas are enforced by the API before a
 * file gets here; these protect the ingest worker from what only shows once a file is opened.
 */
export const knowledgeLimits = {
  /** Refuse to open anything larger; a worker holds the whole file in memory while extracting. */
  maxSourceBytes: 50 * 1024 * 1024,
  /** Extracted text beyond this is refused rather than truncated, so an answer never rests on half a file. */
  maxExtractedCharacters: 1_000_000,
  /** Sum of the uncompressed sizes of the parts of an Office file we read (zip bombs). */
  maxUncompressedOfficeBytes: 200 * 1024 * 1024,
  /** Passage size in words, and the most words one passage repeats from the previous one. */
  chunkMinWords: 120,
  chunkMaxWords: 250,
  chunkOverlapMaxWords: 40,
} as const;

export type KnowledgeLimits = typeof knowledgeLimits;
