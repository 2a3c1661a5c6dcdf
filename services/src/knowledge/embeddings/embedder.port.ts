/**
 * Port: turns texts into embedding vectors (one per text, in order). The OpenAI adapter calls any
 * OpenAI-compatible `/v1/embeddings`; tests use a local stand-in that speaks the same wire format.
 * Transient failures (429, 5xx, a dropped connection) are the adapter's to retry; what it throws after
 * that is left for the caller to try again later.
 */
export interface Embedder {
  /** The model's name: vectors of different models are never compared. */
  readonly model: string;
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** The vector scaled to length 1, so that a dot product is the cosine similarity. A zero vector stays zero. */
export function normalized(vector: readonly number[]): number[] {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const length = Math.sqrt(sum);
  return length === 0 ? vector.map(() => 0) : vector.map((value) => value / length);
}
