import { streamIds, type KnowledgeFileIngested, type KnowledgeFileIngestionFailed, type KnowledgeFileUploaded } from '@kesher/contracts';
import { knowledgeFileDecider } from '../../domain/knowledge-file/knowledge-file.decider.js';
import type { Consumer, MessageBus } from '../../platform/bus/message-bus.port.js';
import type { CommandHandler } from '../../platform/commands/command-handler.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { fromMessage, topicFor } from '../relay/relayed-event.js';

export type IngestOutcome = { ingested: KnowledgeFileIngested } | { failed: KnowledgeFileIngestionFailed };

export interface IngestWorkerDeps {
  bus: MessageBus;
  eventStore: EventStore;
  handle: CommandHandler;
  /** Extract → chunk → store; returns the outcome to record. Never throws for a bad file. */
  ingest: (uploaded: KnowledgeFileUploaded) => Promise<IngestOutcome>;
  groupId?: string;
  clock?: () => Date;
}

/**
 * Consumes uploads from the bus and records each file's ingestion outcome on its stream. Redelivery is
 * harmless: a file whose outcome is already recorded (or that was deleted meanwhile) is skipped before
 * any work, and the decider refuses a second outcome anyway.
 */
export function createIngestWorker(deps: IngestWorkerDeps) {
  const clock = deps.clock ?? (() => new Date());
  let consumer: Consumer | undefined;

  async function stillPending(fileId: string) {
    const events = await deps.eventStore.readStream(streamIds.knowledgeFile(fileId));
    const state = events.reduce((s, e) => knowledgeFileDecider.evolve(s, { type: e.type, data: e.data } as never), knowledgeFileDecider.initialState());
    return state.status === 'pending';
  }

  return {
    async start() {
      consumer = await deps.bus.consume({
        groupId: deps.groupId ?? 'ingest',
        topics: [topicFor(streamIds.knowledgeFile('x'))],
        handler: async (message) => {
          const event = fromMessage(message);
          if (event.type !== 'KnowledgeFileUploaded') return;
          const uploaded = event.data as KnowledgeFileUploaded;
          if (!(await stillPending(uploaded.fileId))) return;
          const outcome = await deps.ingest(uploaded);
          await deps.handle(knowledgeFileDecider, streamIds.knowledgeFile(uploaded.fileId), { type: 'RecordIngestion', data: outcome }, {
            actor: { kind: 'system', id: 'ingest' },
            correlationId: event.metadata.correlationId,
            causationId: event.metadata.eventId,
            now: clock(),
          });
        },
      });
    },
    async stop() {
      await consumer?.stop();
    },
  };
}
