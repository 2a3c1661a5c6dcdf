/**
 * The public entry of knowledge: ingestion, passages and search, the built-in engine's answers and the
 * knowledge reads. Other modules, the facade and the composition roots import only this file (DESIGN.md §3,
 * eslint.config.js).
 */
export { findEvidence } from './answers/answer-evidence.js';
export type { Evidence } from './answers/answer-evidence.js';
export { restateFacts } from './answers/restate-facts.js';
export { createDocumentTextReader } from './document-text.js';
export type { DocumentTextInput } from './document-text.js';
export { embeddingMigrations } from './embeddings/embedding.migrations.js';
export { createOpenAiEmbedder } from './embeddings/openai.embedder.js';
export { uploadedFileName, withoutInvisibleCharacters } from './ingest/upload-filename.js';
export type { FileRecord, KnowledgeReads } from './knowledge-reads.js';
export { createKnowledgeService } from './knowledge-service.js';
export type { AnswerKind } from './search/answer-kinds.js';
export type { RetrievedPassage } from './search/retrieve.js';
