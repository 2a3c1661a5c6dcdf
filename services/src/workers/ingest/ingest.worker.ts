import {
  streamIds,
  type KnowledgeFileIngested,
  type KnowledgeFileIngestionFailed,
  type KnowledgeFileUploaded,
  type RecordedEvent,
} from '@kesher/contracts';
import { knowledgeFileDecider } from '../../domain/knowledge-file/knowledge-file.decider.js';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';
import type { Consumer, DeliveredMessage, MessageBus } from '../../platform/bus/message-bus.port.js';
import { aggregateStream, eventOf } from '../../platform/commands/aggregate-stream.js';
import type { CommandHandler } from '../../platform/commands/command-handler.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { fromMessage, topicFor } from '../../platform/bus/relayed-event.js';

export type IngestOutcome = { ingested: KnowledgeFileIngested } | { failed: KnowledgeFileIngestionFailed };

export interface IngestWorkerDeps {
  bus: MessageBus;
  eventStore: EventStore;
  handle: CommandHandler;
  /** Extract → chunk → store; returns the outcome to record. Never throws for a bad file. */
  ingest: (uploaded: KnowledgeFileUploaded) => Promise<IngestOutcome>;
  /** Where a file's stored text and passages are held (by the file's id): released when the file went meanwhile. */
  blobs: Pick<BlobStore, 'release'>;
  groupId?: string;
  /** Files read at the same time (default 3); one owner's files are read one after another. */
  concurrency?: number;
  clock?: () => Date;
}

/**
 * What the owner reads when reading their file failed every time it was tried (the reader threw, or the
 * process died while reading it): the bus parked the upload. Says what to do, not what broke.
 */
export const unreadableFileReason =
  'The file could not be read: reading it failed several times. Upload it again, or save it in another format and upload that.';

/**
 * Consumes uploads from the bus and records each file's ingestion outcome on its stream. Redelivery is
 * harmless: a file whose outcome is already recorded (or that was deleted meanwhile) is skipped before
 * any work, and the decider refuses a second outcome anyway.
 *
 * Several files are read at once, but each owner's uploads form one lane of the bus: an owner who
 * uploads ten large files takes one of the slots, and everyone else's files are read beside them. An
 * upload the bus gives up on (parked after repeated failures) is recorded as a failed file, so the owner
 * sees it failed rather than pending for ever.
 */
export function createIngestWorker(deps: IngestWorkerDeps) {
  const clock = deps.clock ?? (() => new Date());
  let consumer: Consumer | undefined;

  async function stillPending(fileId: string) {
    const { state } = await aggregateStream(deps.eventStore, knowledgeFileDecider, streamIds.knowledgeFile(fileId));
    return state.status === 'pending';
  }

  const uploadIn = (message: Pick<DeliveredMessage, 'value'>) => {
    const event = eventOf(['KnowledgeFileUploaded'], fromMessage(message));
    return event && { event, uploaded: event.data };
  };

  async function record(event: RecordedEvent, uploaded: KnowledgeFileUploaded, outcome: IngestOutcome) {
    const result = await deps.handle(
      knowledgeFileDecider,
      streamIds.knowledgeFile(uploaded.fileId),
      { type: 'RecordIngestion', data: outcome },
      {
        actor: { kind: 'system', id: 'ingest' },
        correlationId: event.metadata.correlationId,
        causationId: event.metadata.eventId,
        now: clock(),
      },
    );
    // Refused because the file was deleted while it was read: the text and passages just stored under its
    // id were put after the deletion released the file's blobs (knowledge blob-cleanup worker), so nobody else
    // would ever free them. A file that is merely recorded already (a redelivery) keeps what it holds.
    if (result.events.length === 0 && result.state.status === 'deleted') await deps.blobs.release(uploaded.fileId);
  }

  return {
    async start() {
      consumer = await deps.bus.consume({
        groupId: deps.groupId ?? 'ingest',
        topics: [topicFor(streamIds.knowledgeFile('x'))],
        eventTypes: ['KnowledgeFileUploaded'],
        concurrency: deps.concurrency ?? 3,
        // The file's other events (read, deleted) carry no owner; nothing here waits on them.
        laneOf: (message) => {
          const upload = uploadIn(message);
          return upload ? `owner:${upload.uploaded.ownerId}` : message.key;
        },
        handler: async (message) => {
          const upload = uploadIn(message);
          if (!upload || !(await stillPending(upload.uploaded.fileId))) return;
          await record(upload.event, upload.uploaded, await deps.ingest(upload.uploaded));
        },
        onParked: async (message) => {
          const upload = uploadIn(message);
          if (!upload || !(await stillPending(upload.uploaded.fileId))) return;
          const { fileId, assistantId } = upload.uploaded;
          await record(upload.event, upload.uploaded, {
            failed: { fileId, assistantId, reason: unreadableFileReason },
          });
        },
      });
    },
    async stop() {
      await consumer?.stop();
    },
  };
}
