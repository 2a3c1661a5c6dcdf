import type { Embedder } from './embedder.port.js';
import type { VectorIndex } from './vector-index.js';

export interface EmbeddingIndexerDeps {
  embedder: Embedder;
  index: VectorIndex;
  /** Passages per request to the embeddings server (default 64). */
  batchSize?: number;
  /** How often the read model is looked at for new passages when there was nothing to do (default 1 s). */
  idleMs?: number;
  /** The longest wait after failures (default 60 s); the first is `idleMs`, doubling each time. */
  maxBackoffMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Gives every passage of the knowledge read model its vector: it takes the passages that have none for the
 * configured model, a batch at a time, asks the embeddings server (whose adapter already retries 429 and
 * 5xx with backoff) and stores the vectors. Nothing is lost when the server is down for longer: the
 * passages simply stay without a vector — retrieval is full-text for them meanwhile — and the indexer
 * backs off (doubling up to `maxBackoffMs`) and tries again. Files are never held back by it: ingestion
 * records its outcome first, the vectors follow within about a second.
 *
 * Changing the model is not a migration: the vectors of the old model are dropped at start and every
 * passage of the read model (itself the replay of the knowledge events) is embedded again.
 */
export function createEmbeddingIndexer(deps: EmbeddingIndexerDeps) {
  const batchSize = deps.batchSize ?? 64;
  const idleMs = deps.idleMs ?? 1000;
  const maxBackoffMs = deps.maxBackoffMs ?? 60_000;
  let stopped = true;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let failures = 0;
  const counts = { embedded: 0, batches: 0, failures: 0 };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** One batch: how many passages got a vector (0 when none was waiting). Throws what the server threw. */
  async function step(): Promise<number> {
    const passages = await deps.index.missing(deps.embedder.model, batchSize);
    if (passages.length === 0) return 0;
    const vectors = await deps.embedder.embed(passages.map((passage) => passage.input));
    await deps.index.put(deps.embedder.model, passages, vectors);
    counts.embedded += passages.length;
    counts.batches++;
    return passages.length;
  }

  async function run() {
    await deps.index.dropOtherModels(deps.embedder.model).catch((error: unknown) => deps.onError?.(error));
    while (!stopped) {
      let done = 0;
      try {
        done = await step();
        failures = 0;
      } catch (error) {
        failures++;
        counts.failures++;
        deps.onError?.(error);
      }
      if (stopped) break;
      if (failures > 0) await sleep(Math.min(maxBackoffMs, idleMs * 2 ** (failures - 1)));
      else if (done === 0) await sleep(idleMs);
    }
  }

  return {
    counts,
    /** Embeds until nothing is left (tests, tools); throws the first failure. */
    async drain(): Promise<number> {
      let total = 0;
      for (let done = await step(); done > 0; done = await step()) total += done;
      return total;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      loop = run();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

export type EmbeddingIndexer = ReturnType<typeof createEmbeddingIndexer>;
