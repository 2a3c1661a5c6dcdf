import { streamIds } from '@kesher/contracts';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';
import type { Consumer, MessageBus } from '../../platform/bus/message-bus.port.js';
import { fromMessage, topicFor } from '../../platform/bus/relayed-event.js';
import { eventOf } from '../../platform/commands/aggregate-stream.js';

export interface KnowledgeBlobCleanupDeps {
  bus: MessageBus;
  /** The blob store the file's bytes, text and passages were put in, held by the file's id. */
  blobs: Pick<BlobStore, 'release'>;
  groupId?: string;
}

/** The events after which a knowledge file's blobs are no longer needed. */
const FILE_GONE = ['KnowledgeFileDeleted', 'KnowledgeFileIngestionFailed'] as const;

/**
 * Frees a knowledge file's blobs once nobody needs them: when the file is deleted, or its reading failed
 * (the file stays listed with its reason, without its bytes). It goes through the blob store port, whose
 * `release` forgets the file's references and deletes only the blobs no other file holds — the same
 * bytes uploaded for another file stay.
 *
 * This used to happen inside the knowledge read model's transaction, duplicating the SQL blob store's
 * locking; a read model only reads the log, and replaying it must not touch stored files. `release` is
 * idempotent, so a redelivery is harmless, and a group seen for the first time starts at the beginning:
 * files deleted before this worker existed are cleaned up too.
 */
export function createKnowledgeBlobCleanupWorker(deps: KnowledgeBlobCleanupDeps) {
  let consumer: Consumer | undefined;
  return {
    async start() {
      consumer = await deps.bus.consume({
        groupId: deps.groupId ?? 'knowledge-blob-cleanup',
        topics: [topicFor(streamIds.knowledgeFile('x'))],
        eventTypes: FILE_GONE,
        handler: async (message) => {
          const gone = eventOf(FILE_GONE, fromMessage(message));
          if (gone) await deps.blobs.release(gone.data.fileId);
        },
      });
    },
    async stop() {
      await consumer?.stop();
    },
  };
}
