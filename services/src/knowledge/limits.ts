/**
 * Per-file limits of the knowledge pipeline. Upload size and plan quotas are enforced by the API before a
 * file gets here; these protect the ingest worker from what only shows once a file is opened.
 */
export const knowledgeLimits = {
  /** Refuse to open anything larger; a worker holds the whole file in memory while extracting. */
  maxSourceBytes: 50 * 1024 * 1024,
  /** Extracted text beyond this is refused rather than truncated, so an answer never rests on half a file. */
  maxExtractedCharacters: 1_000_000,
  /**
   * Bytes a file may unpack to: the Office parts we read, a PDF's text-bearing streams, a gzip-compressed
   * text, counted while inflating so a bomb stops at this size instead of at its own. 64 MiB of Word or
   * sheet XML already holds far more than maxExtractedCharacters of text.
   */
  maxUnpackedBytes: 64 * 1024 * 1024,
  /** Deepest element nesting read in an Office part; Word's own documents stay below a few dozen. */
  maxXmlDepth: 512,
  /** Passage size in words, and the most words one passage repeats from the previous one. */
  chunkMinWords: 120,
  chunkMaxWords: 250,
  chunkOverlapMaxWords: 40,
} as const;

/**
 * The sandbox files are read in (worker threads off the API's event loop). A worker past its heap or its
 * time is terminated and the file fails with its reason; the pool starts a new one. Composition roots
 * take these from the configuration (EXTRACT_*); tests pass small ones.
 */
export const extractionSandboxDefaults = {
  /** Files read at once; each worker holds at most `maxMemoryMb` of heap. */
  poolSize: 2,
  /** Old-generation heap of one worker; a file whose reading needs more fails "too large when unpacked". */
  maxMemoryMb: 512,
  /** Wall-clock time for one file, from the worker picking it up to its text and passages. */
  timeLimitMs: 60_000,
} as const;

export type ExtractionSandboxOptions = { poolSize: number; maxMemoryMb: number; timeLimitMs: number };

export type KnowledgeLimits = typeof knowledgeLimits;
