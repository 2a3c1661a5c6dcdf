/**
 * The assistants module's public entry: erasing a deleted assistant's conversations and files, and the
 * sequence of assistants' numeric ids. Other modules import only this file (DESIGN.md §3, eslint.config.js).
 */
export { createAssistantErasure } from './assistant-erasure.js';
export type { AssistantErasure } from './assistant-erasure.js';
export { assistantMigrations } from './assistant.migrations.js';
