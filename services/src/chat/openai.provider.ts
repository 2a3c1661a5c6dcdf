import OpenAI from 'openai';
import { automationMessages } from '@kesher/contracts';
import { AnswerProviderError, type AnswerDelta, type AnswerProvider } from './answer-provider.port.js';
import { buildPrompt } from './prompt.js';
import { toolDefinition, toolName } from '../automation/index.js';

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
/** Rounds of tool calls a run may take before the model must answer (a model looping on tools still ends). */
const MAX_TOOL_ROUNDS = 3;

/** What the user reads as `last_error.message`; the provider's own text stays in the logs. */
function readable(error: unknown): AnswerProviderError {
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new AnswerProviderError('The AI service took too long to answer. Please try again.', true);
  if (error instanceof OpenAI.APIConnectionError)
    return new AnswerProviderError('The AI service could not be reached. Please try again in a few moments.', true);
  if (error instanceof OpenAI.APIError) {
    if (error.status === 401 || error.status === 403)
      return new AnswerProviderError('The AI service refused the configured key. Please contact the administrator.');
    if (error.status === 429)
      return new AnswerProviderError('The AI service is busy right now. Please try again in a few moments.', true);
    if (error.status !== undefined && error.status >= 500)
      return new AnswerProviderError('The AI service had an error. Please try again.', true);
    if (error.status !== undefined)
      return new AnswerProviderError(`The AI service rejected the request (${error.status}).`);
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
      // The owner's API actions are offered as tools when the run can execute them (automation/run-automation.ts).
      const offered = request.runTools ? (request.behaviour?.tools ?? []) : [];
      const tools = offered.map(toolDefinition);
      const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = buildPrompt(request);
      const usage = { promptTokens: 0, completionTokens: 0 };
      let answered = false;
      const failedActions: string[] = [];
      for (let round = 0; ; round++) {
        const offerTools = tools.length > 0 && round < MAX_TOOL_ROUNDS;
        let stream;
        try {
          stream = await client.chat.completions.create(
            {
              model: options.model,
              messages,
              stream: true,
              stream_options: { include_usage: true },
              temperature: 0.2,
              ...(offerTools ? { tools, tool_choice: 'auto' as const } : {}),
            },
            { signal: request.signal },
          );
        } catch (error) {
          if (request.signal?.aborted) return;
          throw readable(error);
        }
        const calls: { id: string; name: string; arguments: string }[] = [];
        let finish: string | null = null;
        try {
          for await (const chunk of stream) {
            const choice = chunk.choices[0];
            const text = choice?.delta?.content;
            if (text) {
              answered = true;
              yield { kind: 'text', text };
            }
            for (const call of choice?.delta?.tool_calls ?? []) {
              const at = (calls[call.index] ??= { id: '', name: '', arguments: '' });
              if (call.id) at.id = call.id;
              if (call.function?.name) at.name += call.function.name;
              if (call.function?.arguments) at.arguments += call.function.arguments;
            }
            if (choice?.finish_reason) finish = choice.finish_reason;
            if (chunk.usage) {
              usage.promptTokens += chunk.usage.prompt_tokens;
              usage.completionTokens += chunk.usage.completion_tokens;
            }
          }
        } catch (error) {
          if (request.signal?.aborted) return;
          // Once the answer has started, any failure (socket cut, error event, idle timeout) is a cut answer.
          throw new AnswerProviderError(CUT, true);
        }
        const asked = calls.filter(Boolean);
        if (!offerTools || asked.length === 0 || (finish !== null && finish !== 'tool_calls')) break;
        // The run waits for its actions (requires_action), then the model answers with their results.
        const byName = new Map(offered.map((action) => [toolName(action), action]));
        const parsed = asked.map((call, i) => {
          let args: Record<string, unknown> = {};
          try {
            const value: unknown = JSON.parse(call.arguments || '{}');
            if (value && typeof value === 'object' && !Array.isArray(value)) args = value as Record<string, unknown>;
          } catch {
            // Arguments that are not JSON: the action runs with none, and says which input is missing.
          }
          return {
            callId: call.id || `call_${round}_${i}`,
            name: call.name,
            actionId: byName.get(call.name)?.id ?? '',
            arguments: args,
          };
        });
        const results = await request.runTools!(
          parsed
            .filter((call) => call.actionId)
            .map(({ callId, actionId, arguments: args }) => ({ callId, actionId, arguments: args })),
        );
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: parsed.map((call) => ({
            id: call.callId,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        });
        for (const call of parsed) {
          const result = results.find((r) => r.callId === call.callId);
          if (!result?.success) failedActions.push(result?.title ?? call.name);
          const content = result
            ? JSON.stringify(
                result.success
                  ? { ok: true, status: result.statusCode, response: result.response }
                  : { ok: false, error: result.message },
              )
            : JSON.stringify({ ok: false, error: `No action is named ${call.name}` });
          messages.push({ role: 'tool', tool_call_id: call.callId, content: content.slice(0, 20_000) });
        }
      }
      // A model that went quiet after failed actions still leaves the visitor an answer saying so.
      if (!answered && failedActions.length) {
        const say =
          request.language === 'he'
            ? automationMessages.actionFailedInAnswer.he
            : automationMessages.actionFailedInAnswer.en;
        yield { kind: 'text', text: [...new Set(failedActions)].map(say).join('\n') };
      }
      if (usage.promptTokens || usage.completionTokens) yield { kind: 'usage', ...usage };
    },
  };
}
