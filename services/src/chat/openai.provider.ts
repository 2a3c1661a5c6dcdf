import OpenAI from 'openai';
import { AnswerProviderError, type AnswerDelta, type AnswerProvider } from './answer-provider.port.js';
import { buildPrompt } from './prompt.js';

export interface OpenAiProviderOptions {
  apiKey: string;
  /** Any OpenAI-compatible server; the SDK's default (api.openai.com) when absent. */
  baseURL?: string;
  model: string;
  /** Per attempt, until the response starts (and between chunks). */
  timeoutMs?: number;
  /** Retried with exponential backoff by the SDK: connection errors, 408, 409, 429 and 5xx. */
  maxRetries?: number;
}

const CUT = 'The AI service stopped in the middle of the answer. Please try again.';

/** What the user reads as `last_error.message`; the provider's own text stays in the logs. */
function readable(error: unknown): AnswerProviderError {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new AnswerProviderError('The AI service took too long to answer. Please try again.', true);
  if (error instanceof OpenAI.APIConnectionError) return new AnswerProviderError('The AI service could not be reached. Please try again in a few moments.', true);
  if (error instanceof OpenAI.APIError) {
    if (error.status === 401 || error.status === 403) return new AnswerProviderError('The AI service refused the configured key. Please contact the administrator.');
    if (error.status === 429) return new AnswerProviderError('The AI service is busy right now. Please try again in a few moments.', true);
    if (error.status !== undefined && error.status >= 500) return new AnswerProviderError('The AI service had an error. Please try again.', true);
    if (error.status !== undefined) return new AnswerProviderError(`The AI service rejected the request (${error.status}).`);
  }
  return new AnswerProviderError(CUT, true);
}

/**
 * Answers through Chat Completions with streaming, the common denominator of OpenAI-compatible servers
 * (OpenAI's Assistants API is gone; threads, runs and retrieval are Kesher's). The request's signal
 * cancels the upstream call, so a client gone or a run expired stops the spending too.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): AnswerProvider {
  const client = new OpenAI({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    timeout: options.timeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 2,
  });
  return {
    name: 'openai',
    async *answer(request): AsyncIterable<AnswerDelta> {
      let stream;
      try {
        stream = await client.chat.completions.create(
          { model: options.model, messages: buildPrompt(request), stream: true, stream_options: { include_usage: true }, temperature: 0.2 },
          { signal: request.signal },
        );
      } catch (error) {
        if (request.signal?.aborted) return;
        throw readable(error);
      }
      try {
        for await (const chunk of stream) {
          const text = chunk.choices[0]?.delta?.content;
          if (text) yield { kind: 'text', text };
          if (chunk.usage) yield { kind: 'usage', promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
        }
      } catch (error) {
        if (request.signal?.aborted) return;
        // Once the answer has started, any failure (socket cut, error event, idle timeout) is a cut answer.
        throw new AnswerProviderError(CUT, true);
      }
    },
  };
}
