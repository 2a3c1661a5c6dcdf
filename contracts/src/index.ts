export * from './events/envelope.js';
export * from './events/account.events.js';
export * from './events/assistant.events.js';
export * from './events/knowledge.events.js';
export * from './events/registry.js';
export * from './events/stream-names.js';
export * from './rules/limits.js';
export * from './rules/messages.js';
