import {
  knowledgeFileMessages,
  type KnowledgeFileIngested,
  type KnowledgeFileIngestionFailed,
  type KnowledgeFileUploaded,
} from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

export type KnowledgeFileState =
  | { status: 'none' }
  | { status: 'pending' | 'ready' | 'failed' | 'deleted'; fileId: string; assistantId: string; ownerId: string };

export type KnowledgeFileCommand =
  | { type: 'UploadKnowledgeFile'; data: KnowledgeFileUploaded }
  /** The ingest worker's outcome. Redelivered outcomes for a file already settled record nothing. */
  | { type: 'RecordIngestion'; data: { ingested: KnowledgeFileIngested } | { failed: KnowledgeFileIngestionFailed } }
  | { type: 'DeleteKnowledgeFile'; data: { fileId: string; ownerId: string } };

const notFound = () => new DomainError('not_found', knowledgeFileMessages.notFound);

/** The events this aggregate's stream holds. */
const knowledgeFileEventTypes = [
  'KnowledgeFileUploaded',
  'KnowledgeFileIngested',
  'KnowledgeFileIngestionFailed',
  'KnowledgeFileDeleted',
] as const;
export type KnowledgeFileEvent = EventOf<(typeof knowledgeFileEventTypes)[number]>;

export const knowledgeFileDecider: Decider<KnowledgeFileState, KnowledgeFileCommand, KnowledgeFileEvent> = {
  eventTypes: knowledgeFileEventTypes,
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'KnowledgeFileUploaded':
        return {
          status: 'pending',
          fileId: event.data.fileId,
          assistantId: event.data.assistantId,
          ownerId: event.data.ownerId,
        };
      case 'KnowledgeFileIngested':
        return state.status === 'pending' ? { ...state, status: 'ready' } : state;
      case 'KnowledgeFileIngestionFailed':
        return state.status === 'pending' ? { ...state, status: 'failed' } : state;
      case 'KnowledgeFileDeleted':
        return state.status === 'none' ? state : { ...state, status: 'deleted' };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'UploadKnowledgeFile':
        if (state.status !== 'none') throw new DomainError('conflict', knowledgeFileMessages.exists);
        return [{ type: 'KnowledgeFileUploaded', data: command.data }];
      case 'RecordIngestion':
        if (state.status !== 'pending') return [];
        return 'ingested' in command.data
          ? [{ type: 'KnowledgeFileIngested', data: command.data.ingested }]
          : [{ type: 'KnowledgeFileIngestionFailed', data: command.data.failed }];
      case 'DeleteKnowledgeFile':
        if (state.status === 'none' || state.status === 'deleted' || state.ownerId !== command.data.ownerId)
          throw notFound();
        return [{ type: 'KnowledgeFileDeleted', data: { fileId: state.fileId, assistantId: state.assistantId } }];
    }
  },
};
