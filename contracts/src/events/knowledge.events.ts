import { z } from 'zod';

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

/** File kinds Kesher can turn into knowledge (spec §5 picker list). */
export const KnowledgeFileKindSchema = z.enum(['pdf', 'docx', 'txt', 'csv', 'md', 'json', 'xlsx', 'pptx', 'html']);
export type KnowledgeFileKind = z.infer<typeof KnowledgeFileKindSchema>;

/** An owner attached a file (or a crawled/Drive page) to an assistant. The bytes are in the blob store. */
export const KnowledgeFileUploadedSchema = z.object({
  fileId: z.string().min(1),
  assistantId: z.string().min(1),
  ownerId: z.string().min(1),
  filename: z.string().min(1).max(255),
  kind: KnowledgeFileKindSchema,
  bytes: z.number().int().nonnegative(),
  /** Blob key of the original bytes. */
  contentSha256: Sha256Schema,
  /** Where the content came from, when it has an address (crawled page, Drive link). */
  sourceUrl: z.string().nullable(),
});
export type KnowledgeFileUploaded = z.infer<typeof KnowledgeFileUploadedSchema>;

/** The ingest worker extracted and chunked the file; the chunks (JSON) are in the blob store. */
export const KnowledgeFileIngestedSchema = z.object({
  fileId: z.string().min(1),
  assistantId: z.string().min(1),
  /** Blob key of the extracted clean text. */
  textSha256: Sha256Schema,
  /** Blob key of the chunk list, JSON `KnowledgeChunk[]`. */
  chunksSha256: Sha256Schema,
  chunkCount: z.number().int().nonnegative(),
  characters: z.number().int().nonnegative(),
  /** Detected dominant language of the text. */
  language: z.enum(['he', 'en', 'other']),
  elapsedMs: z.number().nonnegative(),
});
export type KnowledgeFileIngested = z.infer<typeof KnowledgeFileIngestedSchema>;

export const KnowledgeFileIngestionFailedSchema = z.object({
  fileId: z.string().min(1),
  assistantId: z.string().min(1),
  /** Readable reason shown to the owner, e.g. "The PDF is password-protected". */
  reason: z.string().min(1),
});
export type KnowledgeFileIngestionFailed = z.infer<typeof KnowledgeFileIngestionFailedSchema>;

export const KnowledgeFileDeletedSchema = z.object({
  fileId: z.string().min(1),
  assistantId: z.string().min(1),
});
export type KnowledgeFileDeleted = z.infer<typeof KnowledgeFileDeletedSchema>;

/** One retrievable passage, as stored in the chunks blob. */
export const KnowledgeChunkSchema = z.object({
  index: z.number().int().nonnegative(),
  text: z.string(),
  /** Heading or page/sheet/slide label the passage sits under, when the format has one. */
  section: z.string().nullable(),
});
export type KnowledgeChunk = z.infer<typeof KnowledgeChunkSchema>;
