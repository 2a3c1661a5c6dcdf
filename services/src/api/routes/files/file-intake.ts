import { randomUUID } from 'node:crypto';
import {
  fileMessages,
  knowledgeFileMessages,
  messages,
  streamIds,
  uploadLimits,
  type KnowledgeFileKind,
} from '@kesher/contracts';
import type { FastifyRequest } from 'fastify';
import { knowledgeFileDecider } from '../../../domain/knowledge-file/knowledge-file.decider.js';
import { hashInSlices } from '../../../platform/blobs/blob-store.port.js';
import { createHolding } from '../../../plans/index.js';
import { DomainError } from '../../../platform/commands/decider.js';
import { StreamDeletedError } from '../../../platform/event-store/event-store.port.js';
import { type FileRecord, withoutInvisibleCharacters } from '../../../knowledge/index.js';
import { ApiError } from '../../api-error.js';
import { commandContext, createCommandRunner } from '../../command-runner.js';
import type { FileRoutesDeps } from './files.routes.js';

export interface IncomingFile {
  ownerId: string;
  assistantId: string;
  filename: string;
  kind: KnowledgeFileKind;
  bytes: Buffer;
  /** Where the file came from (a crawled page, a Google Drive file): answers cite it as a link. */
  sourceUrl: string | null;
}

/**
 * How a file becomes knowledge, whichever door it came through (an upload, a Google Drive import): the
 * storage limit, the same bytes answered with the file already made from them, the bytes held by the
 * file, its hold on the owner's storage, the plan's file slot, the upload event — and every step undone
 * when a later one fails.
 */
export function createFileIntake(
  deps: Omit<FileRoutesDeps, 'readDb'> & {
    isAssistantAlive: (ownerId: string, assistantId: string) => Promise<boolean>;
  },
) {
  const run = createCommandRunner(deps);

  async function waitForIngestion(ownerId: string, fileId: string): Promise<FileRecord | undefined> {
    const deadline = Date.now() + (deps.ingestionWaitMs ?? 1500);
    let file = await deps.knowledge.getFile(ownerId, fileId);
    while (file?.status === 'pending' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      file = await deps.knowledge.getFile(ownerId, fileId);
    }
    return file;
  }

  return async function addFile(
    request: FastifyRequest,
    incoming: IncomingFile,
  ): Promise<{ created: boolean; file: FileRecord }> {
    const { ownerId, assistantId, bytes } = incoming;
    if (bytes.byteLength === 0) throw new ApiError(422, knowledgeFileMessages.empty);
    const storageUsed = await deps.knowledge.storageUsed(ownerId);
    const { bytes: storageLimit, message: storageFull } = deps.storageLimitOf
      ? await deps.storageLimitOf(ownerId)
      : { bytes: deps.storageLimitBytes ?? uploadLimits.freePlanStorageBytes, message: fileMessages.storageFull };
    const refuseForStorage = async (): Promise<never> => {
      await deps.limitViolations?.record(commandContext(request, deps.clock), {
        ownerId,
        kind: 'storage',
        limit: storageLimit,
        used: storageUsed,
        requested: bytes.byteLength,
        assistantId,
        refused: 'owner',
      });
      throw new ApiError(413, storageFull);
    };
    // What the read model already shows full is refused before any byte is stored; the hold below decides.
    if (storageUsed + bytes.byteLength > storageLimit) await refuseForStorage();

    // The same bytes added again to the same assistant are the same knowledge: answer with it.
    const existing = await deps.knowledge.findByContent(ownerId, assistantId, await hashInSlices(bytes));
    if (existing) return { created: false, file: existing };

    // The bytes first, held by the file-to-be, then its share of the owner's storage (the plan's
    // max_storage_mb, race-free: see plans/storage-holds.ts), then the file's slot (the plan's max_files,
    // race-free: see plans/plan-allowances.ts), then the upload itself. Storing the bytes before the holds
    // keeps the moment between a hold taken and the file's stream begun to two appends: at a limit, a
    // concurrent upload checks every holder, and one whose stream has not begun is taken for a crashed
    // upload and reclaimed. An upload reclaimed that way while alive tries again with a new id (the limit
    // was not reached after all), so uploads at once fill the limit exactly rather than losing places to
    // each other.
    const context = commandContext(request, deps.clock);
    let limit = 0;
    const fileId = await createHolding(
      async () => {
        const fileId = `file-${randomUUID().replaceAll('-', '')}`;
        const stored = await deps.blobs.put(bytes, { holder: fileId });
        const undo = async (held: { storage: boolean; slot: boolean }) => {
          if (held.slot)
            await deps.allowances
              .releaseFiles(context, assistantId, [fileId])
              .catch((e: unknown) => request.log.warn({ err: e }, 'file slot not given back'));
          if (held.storage)
            await deps.storage
              .release(context, ownerId, [fileId])
              .catch((e: unknown) => request.log.warn({ err: e }, 'storage hold not given back'));
          await deps.blobs
            .release(fileId)
            .catch((e: unknown) => request.log.warn({ err: e }, 'upload bytes not released'));
        };
        try {
          await deps.storage.hold(context, {
            ownerId,
            fileId,
            bytes: bytes.byteLength,
            limit: storageLimit,
            refusal: storageFull,
          });
        } catch (error) {
          await undo({ storage: false, slot: false });
          if (error instanceof DomainError && error.kind === 'forbidden') await refuseForStorage();
          throw error;
        }
        try {
          ({ limit } = await deps.allowances.reserveFile(context, ownerId, assistantId, fileId));
        } catch (error) {
          await undo({ storage: true, slot: false });
          throw error;
        }
        try {
          await run(request, knowledgeFileDecider, streamIds.knowledgeFile(fileId), {
            type: 'UploadKnowledgeFile',
            data: {
              fileId,
              assistantId,
              ownerId,
              filename: withoutInvisibleCharacters(incoming.filename).trim() || 'file',
              kind: incoming.kind,
              bytes: bytes.byteLength,
              contentSha256: stored.sha256,
              sourceUrl: incoming.sourceUrl,
            },
          });
        } catch (error) {
          await undo({ storage: true, slot: true });
          // The file's stream was closed before it began: the assistant was deleted meanwhile (404), or a
          // concurrent upload found the slots full and reclaimed this one's (createHolding runs it again).
          if (error instanceof StreamDeletedError && !(await deps.isAssistantAlive(ownerId, assistantId)))
            throw new ApiError(404, messages.assistantNotFound);
          throw error;
        }
        return fileId;
      },
      () => new ApiError(403, messages.fileLimitReached(limit)),
    );
    const file = await waitForIngestion(ownerId, fileId);
    if (!file) throw new Error('uploaded file missing from the read model');
    // The read model counts the file now: its hold has done its work. (If this fails, the next upload's
    // hold lets go of it, finding the file counted.)
    await deps.storage
      .release(context, ownerId, [fileId])
      .catch((e: unknown) => request.log.warn({ err: e }, 'storage hold not let go'));
    return { created: true, file };
  };
}

export type FileIntake = ReturnType<typeof createFileIntake>;
