import OpenAI from 'openai';
import type { Embedder } from './embedder.port.js';

export interface OpenAiEmbedderOptions {
  apiKey: string;
  /** Any OpenAI-compatible server (OPENAI_BASE_URL); the official API when absent. */
  baseURL?: string;
  /** OPENAI_EMBEDDING_MODEL, e.g. text-embedding-3-small. */
  model: string;
  /** Retries of a 429, 5xx or broken connection, with the library's exponential backoff (honouring Retry-After). */
  maxRetries?: number;
  timeoutMs?: number;
}

/**
 * Embeddings through the official `openai` library (the same one the chat provider uses), so the wire
 * format, authentication, Retry-After and backoff are the library's. Vectors are asked for as floats:
 * the library's default (base64) is an encoding some compatible servers do not offer.
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const client = new OpenAI({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: options.maxRetries ?? 4,
    timeout: options.timeoutMs ?? 30_000,
  });
  return {
    model: options.model,
    async embed(texts) {
      if (texts.length === 0) return [];
      const response = await client.embeddings.create({
        model: options.model,
        input: [...texts],
        encoding_format: 'float',
      });
      const vectors: number[][] = new Array(texts.length);
      for (const item of response.data) vectors[item.index] = item.embedding;
      for (let index = 0; index < texts.length; index++) {
        // (A loop, not .some: a vector the server left out is a hole, which .some skips.)
        if (!Array.isArray(vectors[index]) || vectors[index]!.length === 0)
          throw new Error(`the embeddings server answered no vector for text ${index} of ${texts.length}`);
      }
      return vectors;
    },
  };
}
