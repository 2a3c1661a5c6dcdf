import { z } from 'zod';
import { knowledgeFileMessages } from './errors.catalogue.js';

export const FileStatusSchema = z.enum(['pending', 'ready', 'failed']);

/** A knowledge file attached to an assistant (spec §3: id, filename, bytes, created_at). */
export const KnowledgeFileSchema = z.object({
  id: z.string(),
  filename: z.string(),
  bytes: z.number().int(),
  created_at: z.number().int().describe('seconds since epoch'),
  status: FileStatusSchema,
  status_reason: z.string().nullable(),
  source_url: z.string().nullable(),
});
export type KnowledgeFileDto = z.infer<typeof KnowledgeFileSchema>;

export const FileIdParamSchema = z.object({
  fileId: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[A-Za-z0-9_-]+$/, knowledgeFileMessages.invalidId),
});

/** Extensions accepted for upload; the spec's dialog names the first four, the picker accepts all. */
export const uploadExtensions = ['pdf', 'docx', 'txt', 'csv', 'md', 'json', 'xlsx', 'pptx'] as const;
export const uploadLimits = {
  maxFileBytes: 20 * 1024 * 1024,
  /** Knowledge storage per owner on the free plan (the paid plans' is their max_storage_mb). */
  freePlanStorageBytes: 100 * 1024 * 1024,
} as const;

/** "100 MB", "5 GB": a plan's storage as the refusal names it. */
const storageSize = (mb: number) => (mb >= 1024 && mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`);
/** The refusal when the owner's knowledge storage is full: which limit, and how to lift it. */
export const storageFullMessage = (planStorageMb: number) =>
  `Your plan's storage for knowledge files (${storageSize(planStorageMb)}) is full. Delete some files or upgrade the plan to upload more.`;

export const fileMessages = {
  noFile: 'Please choose a file to upload.',
  badType: 'Please select a valid file type (PDF, DOCX, TXT, CSV, MD, JSON, XLSX or PPTX)',
  tooLarge: 'File is too large (max 20 MB).',
  /** The free plan's (see storageFullMessage for any plan). */
  storageFull: storageFullMessage(100),
  notFound: 'File not found.',
} as const;
