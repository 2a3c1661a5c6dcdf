import type { RetrievedPassage } from '../knowledge/index.js';
import type { SalesPage } from './sales-pages.js';
import type { AssistantBehaviour } from '../automation/index.js';

/** One action a provider asks to run, and what came of it (automation/run-automation.ts runs them, each through automation/action-call.ts). */
export interface ToolCall {
  callId: string;
  actionId: string;
  arguments: Record<string, unknown>;
}
export interface ToolResult {
  callId: string;
  actionId: string;
  title: string;
  success: boolean;
  /** Why it failed, or "Test successful!". */
  message: string;
  statusCode: number | null;
  response: unknown;
  /** How long the call took (the action's round trip). */
  durationMs?: number;
}

export type AnswerLanguage = 'he' | 'en' | 'other';

/** Everything a provider may use to answer one question; nothing else is known to it. */
export interface AnswerRequest {
  question: string;
  language: AnswerLanguage;
  /** Earlier turns of the conversation, oldest first, without the question itself. */
  history: readonly { role: 'user' | 'assistant'; text: string }[];
  /** `salesPages`: in Sales Mode, the sales pages the crawler found on the assistant's site (where buyers are sent). */
  assistant: {
    name: string;
    instructions: string;
    salesMode: { enabled: boolean; salesPrompt: string };
    salesPages?: readonly SalesPage[];
  };
  /** The retrieved knowledge, best first. */
  passages: readonly RetrievedPassage[];
  /** Cancels the upstream call (client gone, run expired, worker stopping). */
  signal?: AbortSignal;
  /** The owner's automation for this run: active guidelines, the workflow in force, API actions as tools. */
  behaviour?: AssistantBehaviour;
  /**
   * Runs actions of `behaviour.tools` for the run (the run shows requires_action meanwhile, each call is
   * recorded). Never throws and always settles within the actions' timeouts: a failure is a result.
   */
  runTools?: (calls: readonly ToolCall[]) => Promise<ToolResult[]>;
}

/**
 * What a provider streams: pieces of the answer text; (once, when known) the token counts; and, from a
 * provider that knows exactly which passages it quoted, those passages — the run's sources then list them
 * instead of being guessed from citation marks in the text.
 */
export type AnswerDelta =
  | { kind: 'text'; text: string }
  | { kind: 'usage'; promptTokens: number; completionTokens: number }
  | { kind: 'cited'; passages: readonly RetrievedPassage[] };

/** The one port every AI provider implements (builtin, OpenAI-compatible). */
export interface AnswerProvider {
  readonly name: string;
  answer(request: AnswerRequest): AsyncIterable<AnswerDelta>;
}

/** A provider failure worth showing to the user as the run's `last_error.message`. */
export class AnswerProviderError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'AnswerProviderError';
  }
}
