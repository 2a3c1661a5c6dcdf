import type { Config } from '../platform/config/config.js';
import type { AnswerProvider } from './answer-provider.port.js';
import { createBuiltinProvider } from './builtin.provider.js';
import { createOpenAiProvider } from './openai.provider.js';

/** The composition roots' one decision about AI: an OpenAI-compatible service when a key is set, else the built-in engine. */
export function chooseAnswerProvider(
  config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'>,
): AnswerProvider {
  if (!config.OPENAI_API_KEY) return createBuiltinProvider();
  return createOpenAiProvider({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    model: config.OPENAI_MODEL,
  });
}
