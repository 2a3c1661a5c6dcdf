/**
 * The public entry of chat: conversations, runs, answer providers, the public chat and visitor answers. Other
 * modules, the facade and the composition roots import only this file (DESIGN.md §3, eslint.config.js).
 */
export { untilAborted } from './abortable.js';
export { AnswerProviderError } from './answer-provider.port.js';
export type { AnswerLanguage, AnswerProvider, AnswerRequest, ToolCall, ToolResult } from './answer-provider.port.js';
export { composeAnswerWithEvidence, noAnswerTexts } from './builtin.provider.js';
export { chatMigrations } from './chat.migrations.js';
export { chooseAnswerProvider } from './choose-provider.js';
export { HISTORY_TURNS } from './prompt.js';
export { RUN_OUTPUT_RETENTION_MS } from './run-output/run-output.port.js';
export type { RunOutcome, RunOutputReader, RunOutputWriter } from './run-output/run-output.port.js';
export { createSqlRunOutput } from './run-output/sql.run-output.js';
export type { SalesPage } from './sales-pages.js';
export { createAssistantStates } from './service/chat-assistant.js';
export { createChatService } from './service/chat-service.js';
export type { ChatCall, ChatServiceDeps } from './service/chat-service.js';
export { hashSession, newSessionToken } from './service/chatter.js';
export type { Chatter } from './service/chatter.js';
export { createPublicChatLimits } from './service/public-chat-limits.js';
export { createRunGrants } from './service/run-grants.js';
export type { RunGrants } from './service/run-grants.js';
export { createSqlVisitorAnswers } from './visitor-answers/visitor-answers.js';
