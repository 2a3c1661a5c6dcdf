import {
  conversationTitleFrom,
  type RecordedEvent,
  type RunCompleted,
  type Source,
  type ThreadStarted,
} from '@kesher/contracts';
import type { MessageRow, RunRow, ThreadReader, ThreadRow } from '@kesher/projections/threads/threads.queries';
import { eventOf } from '../../platform/commands/aggregate-stream.js';
import { seconds } from './chat-dtos.js';

/**
 * One conversation as its own stream (`thread-<id>`) tells it, folded into the rows the threads read
 * model would hold for it (`projections/src/threads/threads.projection.ts`). The chat's reads of a
 * thread — its messages, a run, the follow of a run, describe — answer from this, so a read right
 * after a write sees it on any API process, whatever the projector has done: the stream is the write
 * side, and a read of one stream is as cheap as a read-model query.
 */
export interface ThreadView {
  started: ThreadStarted;
  /** The thread as Chat History lists it. */
  row: ThreadRow;
  /** Deleted: nobody reads it any more (the read model drops its rows). */
  deleted: boolean;
  /** Oldest first, in the order the stream recorded them. */
  messages: readonly MessageRow[];
  runs: ReadonlyMap<string, RunRow>;
}

/** How a run ended, as recorded on its thread (what a followed run's stream ends with). */
export type RecordedRunOutcome =
  | { status: 'completed'; message: { id: string; text: string; sources: Source[]; createdAt: number } }
  | { status: 'failed'; error: string }
  | { status: 'expired' };

const UNSETTLED: readonly RunRow['status'][] = ['queued', 'in_progress', 'requires_action'];
const at = (event: RecordedEvent) => seconds(new Date(event.metadata.timestamp));

/** Folds a thread's stored events; undefined when the thread was never started. Events of other kinds are skipped. */
export function threadViewOf(events: readonly RecordedEvent[]): ThreadView | undefined {
  let view:
    | { started: ThreadStarted; row: ThreadRow; deleted: boolean; messages: MessageRow[]; runs: Map<string, RunRow> }
    | undefined;
  const byId = new Map<string, MessageRow>();
  for (const event of events) {
    const started = eventOf(['ThreadStarted'], event);
    if (started) {
      // A second start is refused by the decider; the read model keeps the first.
      if (view) continue;
      const data = started.data;
      view = {
        started: data,
        row: {
          id: data.threadId,
          assistant_id: data.assistantId,
          owner_id: data.ownerId,
          is_public: data.isPublic,
          channel: data.channel,
          title: '',
          created_at: at(event),
          share_token_hash: data.shareTokenHash ?? null,
        },
        deleted: false,
        messages: [],
        runs: new Map(),
      };
      continue;
    }
    // Nothing is shown of a thread before its start, nor after its deletion (the decider records nothing then).
    if (!view || view.deleted) continue;
    const { runs } = view;
    const setRun = (runId: string, from: readonly RunRow['status'][], change: Partial<RunRow>) => {
      const run = runs.get(runId);
      if (run && from.includes(run.status)) runs.set(runId, { ...run, ...change });
    };

    const posted = eventOf(['MessagePosted'], event);
    if (posted) {
      const { messageId, threadId, role, text, runId } = posted.data;
      if (byId.has(messageId)) continue;
      const message: MessageRow = {
        id: messageId,
        thread_id: threadId,
        role,
        text,
        run_id: runId,
        sources: [],
        created_at: at(event),
      };
      byId.set(messageId, message);
      view.messages.push(message);
      continue;
    }
    const requested = eventOf(['RunRequested'], event);
    if (requested) {
      const { runId, threadId, assistantId, deadlineAt } = requested.data;
      if (!runs.has(runId)) {
        runs.set(runId, {
          id: runId,
          thread_id: threadId,
          assistant_id: assistantId,
          status: 'queued',
          error: null,
          message_id: null,
          deadline_at: new Date(deadlineAt),
          created_at: at(event),
          settled_at: null,
        });
      }
      continue;
    }
    const runEvent = eventOf(
      ['RunStarted', 'RunActionsRequired', 'ActionCalled', 'RunCompleted', 'RunFailed', 'RunExpired'],
      event,
    );
    if (runEvent) {
      switch (runEvent.type) {
        case 'RunStarted':
          setRun(runEvent.data.runId, ['queued'], { status: 'in_progress' });
          break;
        // A run waiting for its actions reads requires_action until they are called (automation/run-automation.ts).
        case 'RunActionsRequired':
          setRun(runEvent.data.runId, ['in_progress'], { status: 'requires_action' });
          break;
        case 'ActionCalled':
          setRun(runEvent.data.runId, ['requires_action'], { status: 'in_progress' });
          break;
        // A run takes the first outcome recorded for it.
        case 'RunCompleted':
          setRun(runEvent.data.runId, UNSETTLED, {
            status: 'completed',
            message_id: runEvent.data.messageId,
            settled_at: at(event),
          });
          withSources(byId, runEvent.data);
          break;
        case 'RunFailed':
          setRun(runEvent.data.runId, UNSETTLED, {
            status: 'failed',
            error: runEvent.data.error,
            settled_at: at(event),
          });
          break;
        case 'RunExpired':
          setRun(runEvent.data.runId, UNSETTLED, { status: 'expired', settled_at: at(event) });
          break;
      }
      continue;
    }
    const renamed = eventOf(['ThreadRenamed'], event);
    if (renamed) view.row = { ...view.row, title: renamed.data.title };
    else if (eventOf(['ThreadDeleted'], event)) view.deleted = true;
  }
  // Until renamed, a conversation is titled by its first message, as the threads read model titles it.
  if (view && !view.row.title.trim())
    view.row = { ...view.row, title: conversationTitleFrom(view.messages.find((m) => m.role === 'user')?.text) };
  return view;
}

/** The answer's sources go on its message (the read model likewise sets them from the completion). */
function withSources(messages: Map<string, MessageRow>, completed: RunCompleted) {
  const message = messages.get(completed.messageId);
  if (message)
    message.sources = completed.sources.map(({ fileId, filename, sourceUrl, section }) => ({
      fileId,
      filename,
      sourceUrl,
      section,
    }));
}

/**
 * Whether `reader` may read the thread, as the threads read model's queries scope it (and the thread
 * decider's `accessible`): the owner who started it or the owner of its assistant, or the visitor holding
 * its session token; nobody once it is deleted.
 */
export function visibleTo(view: ThreadView, reader: ThreadReader): boolean {
  if (view.deleted) return false;
  const { ownerId, assistantOwnerId, visitorSessionHash } = view.started;
  if ('ownerId' in reader) return ownerId === reader.ownerId || assistantOwnerId === reader.ownerId;
  return visitorSessionHash !== null && visitorSessionHash === reader.visitorSessionHash;
}

/** How the run ended, when its outcome is recorded; undefined while it is under way (or unknown). */
export function recordedOutcomeOf(view: ThreadView, runId: string): RecordedRunOutcome | undefined {
  const run = view.runs.get(runId);
  if (!run) return undefined;
  switch (run.status) {
    case 'completed': {
      const message = view.messages.find((m) => m.id === run.message_id);
      return (
        message && {
          status: 'completed',
          message: { id: message.id, text: message.text, sources: message.sources, createdAt: message.created_at },
        }
      );
    }
    case 'failed':
      return { status: 'failed', error: run.error ?? 'Unknown error occurred' };
    case 'expired':
      return { status: 'expired' };
    default:
      return undefined;
  }
}
