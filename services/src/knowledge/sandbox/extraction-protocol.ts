import type { ReadFileInput, ReadFileResult } from '../ingest/read-file.js';

/** What the pool sends a worker: one file (its bytes moved, not copied). */
export type WorkerJob = Omit<ReadFileInput, 'ownerId'> & { id: number };

/** What a worker sends back: that it is ready for files, a file's result, or that reading it threw. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: ReadFileResult }
  | { type: 'crashed'; id: number; message: string };
