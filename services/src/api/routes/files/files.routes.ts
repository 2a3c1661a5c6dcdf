import multipart from '@fastify/multipart';
import {
  FileIdParamSchema,
  fileMessages,
  KnowledgeFileSchema,
  messages,
  NumericIdParamSchema,
  streamIds,
  uploadLimits,
  type KnowledgeFileDto,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { knowledgeFileDecider } from '../../../domain/knowledge-file/knowledge-file.decider.js';
import type { PlanAllowances, StorageHolds, StorageLimitOf } from '../../../plans/index.js';
import type { LimitViolations } from '../../../analytics/index.js';
import type { BlobStore } from '../../../platform/blobs/blob-store.port.js';
import type { CommandHandler } from '../../../platform/commands/command-handler.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { type FileRecord, type KnowledgeReads, uploadedFileName } from '../../../knowledge/index.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { createFileIntake } from './file-intake.js';
import { commandContext, createCommandRunner } from '../../command-runner.js';
import type { AwaitReadModels } from '../../../platform/projections/read-model-progress.js';

export interface FileRoutesDeps {
  handle: CommandHandler;
  readDb: Sql;
  blobs: BlobStore;
  knowledge: KnowledgeReads;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  /** How long an upload may wait for ingestion to finish before answering `pending`. */
  ingestionWaitMs?: number;
  /** Knowledge storage per owner; every owner is on the free plan until billing arrives. */
  storageLimitBytes?: number;
  /** The storage limit of the owner's plan now (and its refusal's text); takes precedence over storageLimitBytes. */
  storageLimitOf?: StorageLimitOf;
  /** The plan's max_files per assistant, held as slots on the assistant's stream. */
  allowances: Pick<PlanAllowances, 'reserveFile' | 'releaseFiles'>;
  /** The owner's storage, held by each upload until the read model counts its file (the storage limit, race-free). */
  storage: StorageHolds;
  /** Where a refusal by the storage limit is recorded (analytics). */
  limitViolations?: LimitViolations;
}

const toDto = (file: FileRecord): KnowledgeFileDto => ({
  id: file.id,
  filename: file.filename,
  bytes: file.bytes,
  created_at: Math.floor(file.createdAt.getTime() / 1000),
  status: file.status,
  status_reason: file.statusReason,
  source_url: file.sourceUrl,
});

export const fileRoutes =
  (deps: FileRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    await app.register(multipart, { limits: { fileSize: uploadLimits.maxFileBytes, files: 1, fields: 10, parts: 11 } });
    const assistants = assistantQueries(deps.readDb);
    const run = createCommandRunner(deps);
    const addFile = createFileIntake({
      ...deps,
      isAssistantAlive: async (ownerId, assistantId) =>
        (await assistants.listByOwner(ownerId)).some((a) => a.id === assistantId),
    });

    async function ownedAssistant(request: FastifyRequest, numericId: number) {
      const account = requireAccount(request);
      const row = await assistants.findOwned(account.id, numericId);
      if (!row) throw new ApiError(404, messages.assistantNotFound);
      return { account, row };
    }

    app.post(
      '/assistants/:id/upload_file',
      {
        schema: {
          summary:
            "Upload a knowledge file (multipart field `file`); 403 at the plan's max_files per assistant, 413 when the storage is full",
          params: NumericIdParamSchema,
          consumes: ['multipart/form-data'],
          response: { 201: KnowledgeFileSchema, 200: KnowledgeFileSchema },
        },
      },
      async (request, reply) => {
        const { account, row } = await ownedAssistant(request, request.params.id);
        if (!request.isMultipart()) throw new ApiError(415, fileMessages.noFile);
        // A body that is not a well-formed multipart form (no boundary, cut short, junk) holds no file: the
        // parser's throw said so as a 500 (found by the per-route fuzz).
        const part = await request.file().catch(() => undefined);
        if (!part || part.fieldname !== 'file') throw new ApiError(422, fileMessages.noFile);
        // The type comes from the whole name's extension; a long name is cut before it (knowledge/ingest).
        const { filename, kind } = uploadedFileName(part.filename);
        if (!kind) {
          part.file.resume();
          throw new ApiError(415, fileMessages.badType);
        }
        let bytes: Buffer;
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new ApiError(413, fileMessages.tooLarge);
          // The form broke off inside the file: nothing usable was sent.
          throw new ApiError(422, fileMessages.noFile);
        }
        const { created, file } = await addFile(request, {
          ownerId: account.id,
          assistantId: row.id,
          filename,
          kind,
          bytes,
          sourceUrl: null,
        });
        return reply.status(created ? 201 : 200).send(toDto(file));
      },
    );

    app.get(
      '/assistants/:id/files',
      {
        schema: {
          summary: "An assistant's knowledge files",
          params: NumericIdParamSchema,
          response: { 200: z.array(KnowledgeFileSchema) },
        },
      },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.params.id);
        return (await deps.knowledge.listFiles(account.id, row.id)).map(toDto);
      },
    );

    app.delete(
      '/assistants/:id/files/:fileId',
      {
        schema: {
          summary: 'Remove a knowledge file',
          params: NumericIdParamSchema.extend(FileIdParamSchema.shape),
          response: { 200: z.object({ detail: z.string() }) },
        },
      },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.params.id);
        const file = await deps.knowledge.getFile(account.id, request.params.fileId);
        if (!file || file.assistantId !== row.id) throw new ApiError(404, fileMessages.notFound);
        // Its bytes are freed as the knowledge read model applies the deletion (before this answers); its slot right after.
        await run(request, knowledgeFileDecider, streamIds.knowledgeFile(file.id), {
          type: 'DeleteKnowledgeFile',
          data: { fileId: file.id, ownerId: account.id },
        });
        await deps.allowances.releaseFiles(commandContext(request, deps.clock), row.id, [file.id]);
        return { detail: 'File deleted' };
      },
    );

    app.get(
      '/openai/file/:fileId/content',
      {
        schema: {
          summary: "A knowledge file's extracted text (with a URL: line when it has a source)",
          params: FileIdParamSchema,
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const text = await deps.knowledge.fileText(account.id, request.params.fileId);
        if (text === undefined) throw new ApiError(404, fileMessages.notFound);
        reply.type('text/plain; charset=utf-8');
        return text;
      },
    );
  };
