import { comparePositions, streamIds, type AllPosition } from '@kesher/contracts';
import type { CommandContext, CommandHandler } from '../platform/commands/command-handler.js';
import { DomainError } from '../platform/commands/decider.js';
import { StreamDeletedError, type EventStore } from '../platform/event-store/event-store.port.js';
import { closeIfUnstarted } from '../platform/commands/unstarted-stream.js';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import { knowledgeFileDecider } from '../domain/knowledge-file/knowledge-file.decider.js';
import { threadDecider } from '../domain/thread/thread.decider.js';

export interface AssistantErasureDeps {
  handle: CommandHandler;
  eventStore: EventStore;
  awaitReadModels: AwaitReadModels;
  /** The assistant's files as the knowledge read model lists them (uploads from before file slots existed). */
  filesOf: (ownerId: string, assistantId: string) => Promise<readonly string[]>;
  /** Every conversation with the assistant, visitors' included (Chat History). */
  threadsOf: (ownerId: string, assistantId: string) => Promise<readonly string[]>;
}

/** Deletions appended at once; each is one small append, and they touch different streams. */
const CONCURRENCY = 8;

async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/**
 * What a deleted assistant leaves behind, deleted for everyone with one event per thing: its knowledge
 * files (`KnowledgeFileDeleted`, whose projection frees their bytes) and its conversations, the owner's
 * and visitors' (`ThreadDeleted`). Its share link went with `AssistantDeleted` itself (no assistant row,
 * no shared view, no public chat).
 *
 * The files come from the assistant's own file slots (its stream orders every upload before or after the
 * deletion) and from the read model. A slot whose file stream does not exist yet is an upload in flight:
 * its stream is tombstoned, so that upload fails rather than land on a deleted assistant. Everything here
 * is idempotent — a thing already deleted is skipped — so running it again finishes what a crash cut short.
 * The answer waits until the read models show the deletions (file content 404, storage freed).
 */
export function createAssistantErasure(deps: AssistantErasureDeps) {
  return async function erase(
    context: CommandContext,
    input: { ownerId: string; assistantId: string; fileSlots: readonly string[] },
  ) {
    const { ownerId, assistantId } = input;
    const [listedFiles, threads] = await Promise.all([
      deps.filesOf(ownerId, assistantId),
      deps.threadsOf(ownerId, assistantId),
    ]);
    const files = [...new Set([...input.fileSlots, ...listedFiles])];
    let last: AllPosition | undefined;
    // Set when another eraser (the erasure worker, racing this request) deleted something first.
    let alreadyGone = false;
    const noted = (position: AllPosition | undefined) => {
      if (position && (!last || comparePositions(position, last) > 0)) last = position;
    };
    /** Runs a deletion; a thing already gone (or never recorded) is fine. */
    const deleting = async (attempt: () => Promise<{ appended?: { position: AllPosition } }>) => {
      try {
        noted((await attempt()).appended?.position);
      } catch (error) {
        if (error instanceof StreamDeletedError || (error instanceof DomainError && error.kind === 'not_found')) {
          alreadyGone = true;
          return;
        }
        throw error;
      }
    };

    await eachLimited(files, async (fileId) => {
      const stream = streamIds.knowledgeFile(fileId);
      // An upload not begun is closed (it fails); one begun, even a moment ago, is deleted as any file.
      if ((await closeIfUnstarted(deps.eventStore, stream)) === 'closed') return;
      await deleting(() =>
        deps.handle(knowledgeFileDecider, stream, { type: 'DeleteKnowledgeFile', data: { fileId, ownerId } }, context),
      );
    });
    await eachLimited(threads, (threadId) =>
      deleting(() =>
        deps.handle(
          threadDecider,
          streamIds.thread(threadId),
          { type: 'DeleteThread', data: { requester: { ownerId } } },
          context,
        ),
      ),
    );
    // Its deletion is in the log but we hold no position for it: wait up to the head, which includes it, so
    // the answer still comes only once the read models show every deletion.
    if (alreadyGone) noted(await deps.eventStore.headPosition());
    if (last) await deps.awaitReadModels(last, ['KnowledgeFileDeleted', 'ThreadDeleted']);
  };
}

export type AssistantErasure = ReturnType<typeof createAssistantErasure>;
