import {
  chatMessages,
  integrationMessages,
  threadMessages,
  type MessageLanguage,
  type RunCompleted,
  type ThreadStarted,
} from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';
import {
  recentAdd,
  recentGet,
  recentHas,
  recentSet,
  recentUpdate,
  recentEntries,
  recentValues,
  type RecentFirst,
} from '../../platform/commands/recent-first-map.js';

export type RunPhase = 'queued' | 'in_progress' | 'completed' | 'failed' | 'expired';

interface RunState {
  phase: RunPhase;
  deadlineAt: string;
}

export type ThreadState =
  | { status: 'none' }
  | {
      status: 'open' | 'deleted';
      thread: ThreadStarted;
      userMessages: number;
      /**
       * The ids of its messages, its runs by id and its feedback: maps whose change costs the recent
       * entries, not the whole map (recent-first-map.ts; a fold over a long conversation copied them at
       * every event). Read them through the functions below.
       */
      messageIds: RecentFirst<true>;
      runs: RecentFirst<RunState>;
      /** Feedback per `messageId|authorKey`, to tell a change from a repeat. */
      feedback: RecentFirst<string>;
      /** The owner took the conversation over: the assistant does not answer it (one inbox). */
      takenOver: boolean;
    };

/**
 * Who asks: the signed-in owner of the thread, or the visitor holding the thread's session token (with,
 * when writing, the sha-256 of the assistant's current share token: null when it has none).
 */
export type Requester = { ownerId: string } | { visitorSessionHash: string; shareTokenHash?: string | null };

export type ThreadCommand =
  | { type: 'StartThread'; data: ThreadStarted }
  | {
      type: 'PostUserMessage';
      data: { requester: Requester; messageId: string; text: string; language: MessageLanguage; chatLimit: number };
    }
  | {
      type: 'RequestRun';
      data: { requester: Requester; runId: string; assistantId: string; deadlineAt: string; now: string };
    }
  | { type: 'StartRun'; data: { runId: string; provider: string } }
  /**
   * The worker's answer: the assistant message and the completion are recorded together, or not at all; a
   * run whose start is not on the thread yet (the worker claims runs on their output, docs/chat.md) records
   * its start (`provider`) with them, in the same append.
   */
  | {
      type: 'CompleteRun';
      data: Omit<RunCompleted, 'threadId'> & { text: string; language: MessageLanguage; provider: string };
    }
  | { type: 'FailRun'; data: { runId: string; error: string } }
  | { type: 'ExpireRun'; data: { runId: string; now: string } }
  | { type: 'RenameThread'; data: { requester: Requester; title: string } }
  /** The owner of the assistant takes a customer's conversation over, or hands it back to the assistant. */
  | { type: 'TakeOverThread'; data: { ownerId: string } }
  | { type: 'HandBackThread'; data: { ownerId: string } }
  /** The owner's own reply in a conversation they took over (sent through its channel). */
  | { type: 'PostOwnerReply'; data: { ownerId: string; messageId: string; text: string; language: MessageLanguage } }
  | { type: 'DeleteThread'; data: { requester: Requester } }
  | {
      type: 'GiveFeedback';
      data: {
        requester: Requester;
        messageId: string;
        rating: 'like' | 'dislike';
        comment: string | null;
        authorKey: string;
        source: string;
      };
    };

const SETTLED: readonly RunPhase[] = ['completed', 'failed', 'expired'];
export const isSettled = (phase: RunPhase) => SETTLED.includes(phase);

const notFound = () => new DomainError('not_found', chatMessages.threadNotFound);

type Started = Extract<ThreadState, { status: 'open' | 'deleted' }>;

/** The thread's own chatter: the owner who started it, or the visitor holding its session token. */
function isParticipant(thread: ThreadStarted, requester: Requester): boolean {
  if ('ownerId' in requester) return thread.ownerId !== null && thread.ownerId === requester.ownerId;
  return thread.visitorSessionHash !== null && thread.visitorSessionHash === requester.visitorSessionHash;
}

/** The assistant's owner looking after a visitor's conversation listed in Chat History. */
const isAssistantOwner = (thread: ThreadStarted, requester: Requester) =>
  'ownerId' in requester && thread.assistantOwnerId === requester.ownerId;

/**
 * An open thread the requester may look after (read, rename, delete): its participant, or the owner of
 * its assistant. Anyone else is told it does not exist, so ids cannot be probed.
 */
function accessible(state: ThreadState, requester: Requester): Started {
  if (state.status !== 'open' || !(isParticipant(state.thread, requester) || isAssistantOwner(state.thread, requester)))
    throw notFound();
  return state;
}

/**
 * An open thread the requester may write in (messages, runs, feedback): its participant only. The owner
 * reads a visitor's conversation but does not speak in it — the visitor would see words that are not the
 * assistant's, and they would count as the visitor's.
 */
function writable(state: ThreadState, requester: Requester): Started {
  const current = accessible(state, requester);
  if (!isParticipant(current.thread, requester)) throw new DomainError('forbidden', chatMessages.visitorThreadReadOnly);
  // A visitor's thread lives as long as the share link it was opened through: once the owner revokes or
  // rotates the link, nothing more is written in it. (Threads recorded before links were noted are exempt.)
  const { shareTokenHash } = current.thread;
  if ('visitorSessionHash' in requester && shareTokenHash && requester.shareTokenHash !== shareTokenHash) {
    throw new DomainError('forbidden', chatMessages.invalidShareLink);
  }
  return current;
}

/** A run the worker reports on; undefined when it is unknown or already settled (redelivery: record nothing). */
function unsettledRun(state: ThreadState, runId: string): RunState | undefined {
  if (state.status === 'none') return undefined;
  const run = recentGet(state.runs, runId);
  return run && !isSettled(run.phase) ? run : undefined;
}

const withRun = (state: ThreadState, runId: string, change: Partial<RunState>): ThreadState => {
  if (state.status === 'none') return state;
  const runs = recentUpdate(state.runs, runId, (run) => ({ ...run, ...change }));
  return runs === state.runs ? state : { ...state, runs };
};

/** The thread's run by id (undefined: never requested here). */
export const runOf = (state: ThreadState, runId: string): RunState | undefined =>
  state.status === 'none' ? undefined : recentGet(state.runs, runId);

/** Whether a run of the thread is waiting or being answered. */
export function hasRunUnderway(state: ThreadState): boolean {
  if (state.status === 'none') return false;
  for (const run of recentValues(state.runs)) if (run.phase === 'queued' || run.phase === 'in_progress') return true;
  return false;
}

/** Whether the thread holds the message (a redelivered one is recorded once). */
export const hasMessage = (state: ThreadState, messageId: string): boolean =>
  state.status !== 'none' && recentHas(state.messageIds, messageId);

/** The events this aggregate's stream holds. */
const threadEventTypes = [
  'ThreadStarted',
  'MessagePosted',
  'RunRequested',
  'RunStarted',
  'RunCompleted',
  'RunFailed',
  'RunExpired',
  'ThreadRenamed',
  'ThreadDeleted',
  'FeedbackGiven',
  'ThreadTakenOver',
  'ThreadHandedBack',
] as const;
export type ThreadEvent = EventOf<(typeof threadEventTypes)[number]>;

export const threadDecider: Decider<ThreadState, ThreadCommand, ThreadEvent> = {
  eventTypes: threadEventTypes,
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    if (event.type === 'ThreadStarted')
      return {
        status: 'open',
        thread: event.data,
        userMessages: 0,
        messageIds: undefined,
        runs: undefined,
        feedback: undefined,
        takenOver: false,
      };
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'MessagePosted':
        return {
          ...state,
          messageIds: recentAdd(state.messageIds, event.data.messageId, true as const),
          userMessages: state.userMessages + (event.data.role === 'user' ? 1 : 0),
        };
      case 'RunRequested':
        return {
          ...state,
          runs: recentSet(state.runs, event.data.runId, { phase: 'queued', deadlineAt: event.data.deadlineAt }),
        };
      case 'RunStarted':
        return withRun(state, event.data.runId, { phase: 'in_progress' });
      case 'RunCompleted':
        return withRun(state, event.data.runId, { phase: 'completed' });
      case 'RunFailed':
        return withRun(state, event.data.runId, { phase: 'failed' });
      case 'RunExpired':
        return withRun(state, event.data.runId, { phase: 'expired' });
      case 'ThreadDeleted':
        return { ...state, status: 'deleted' };
      case 'ThreadTakenOver':
        return { ...state, takenOver: true };
      case 'ThreadHandedBack':
        return { ...state, takenOver: false };
      case 'FeedbackGiven':
        return {
          ...state,
          feedback: recentSet(
            state.feedback,
            `${event.data.messageId}|${event.data.authorKey}`,
            `${event.data.rating}|${event.data.comment ?? ''}`,
          ),
        };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'StartThread':
        if (state.status !== 'none') throw new DomainError('conflict', threadMessages.exists);
        return [{ type: 'ThreadStarted', data: command.data }];

      case 'PostUserMessage': {
        const { thread, userMessages, messageIds } = writable(state, command.data.requester);
        // The same message again (a channel's redelivered update): already recorded, nothing more to record.
        if (recentHas(messageIds, command.data.messageId)) return [];
        if (userMessages >= command.data.chatLimit)
          throw new DomainError('forbidden', chatMessages.chatLimitReached(command.data.chatLimit));
        const { messageId, text, language } = command.data;
        return [
          {
            type: 'MessagePosted',
            data: {
              messageId,
              threadId: thread.threadId,
              role: 'user',
              text,
              channel: thread.channel,
              language,
              runId: null,
            },
          },
        ];
      }

      case 'RequestRun': {
        const current = writable(state, command.data.requester);
        const { thread, runs } = current;
        if (recentHas(runs, command.data.runId)) return [];
        if (current.takenOver) throw new DomainError('conflict', integrationMessages.takenOver);
        const events: ThreadEvent[] = [];
        // Oldest first, as they were requested.
        for (const [runId, run] of [...recentEntries(runs)].reverse()) {
          if (isSettled(run.phase)) continue;
          // A run past its deadline no longer blocks the conversation: it is expired on the spot.
          if (run.deadlineAt <= command.data.now)
            events.push({ type: 'RunExpired', data: { runId, threadId: thread.threadId } });
          else throw new DomainError('conflict', chatMessages.runActive);
        }
        const { runId, assistantId, deadlineAt } = command.data;
        events.push({ type: 'RunRequested', data: { runId, threadId: thread.threadId, assistantId, deadlineAt } });
        return events;
      }

      case 'StartRun': {
        if (state.status === 'none' || runOf(state, command.data.runId)?.phase !== 'queued') return [];
        return [
          {
            type: 'RunStarted',
            data: { runId: command.data.runId, threadId: state.thread.threadId, provider: command.data.provider },
          },
        ];
      }

      case 'CompleteRun': {
        const run = unsettledRun(state, command.data.runId);
        if (state.status === 'none' || !run) return [];
        const { text, language, provider, ...completion } = command.data;
        const threadId = state.thread.threadId;
        return [
          ...(run.phase === 'queued'
            ? [{ type: 'RunStarted' as const, data: { runId: completion.runId, threadId, provider } }]
            : []),
          {
            type: 'MessagePosted',
            data: {
              messageId: completion.messageId,
              threadId,
              role: 'assistant',
              text,
              channel: state.thread.channel,
              language,
              runId: completion.runId,
            },
          },
          { type: 'RunCompleted', data: { ...completion, threadId } },
        ];
      }

      case 'FailRun': {
        if (state.status === 'none' || !unsettledRun(state, command.data.runId)) return [];
        return [
          {
            type: 'RunFailed',
            data: { runId: command.data.runId, threadId: state.thread.threadId, error: command.data.error },
          },
        ];
      }

      case 'ExpireRun': {
        const run = unsettledRun(state, command.data.runId);
        if (state.status === 'none' || !run || run.deadlineAt > command.data.now) return [];
        return [{ type: 'RunExpired', data: { runId: command.data.runId, threadId: state.thread.threadId } }];
      }

      case 'RenameThread': {
        const { thread } = accessible(state, command.data.requester);
        const title = command.data.title.trim();
        // The spec's rename ignores an empty title; the route refuses it, the decider records nothing.
        if (title === '') return [];
        return [{ type: 'ThreadRenamed', data: { threadId: thread.threadId, title: title.slice(0, 200) } }];
      }

      case 'TakeOverThread':
      case 'HandBackThread': {
        const { thread, takenOver } = accessible(state, { ownerId: command.data.ownerId });
        if (!isAssistantOwner(thread, { ownerId: command.data.ownerId })) throw notFound();
        // The owner's own chat has nobody on the other side to take it over from.
        if (thread.ownerId !== null) throw new DomainError('conflict', integrationMessages.notACustomerThread);
        const wanted = command.type === 'TakeOverThread';
        if (takenOver === wanted) return [];
        return [
          {
            type: wanted ? 'ThreadTakenOver' : 'ThreadHandedBack',
            data: { threadId: thread.threadId, ownerId: command.data.ownerId },
          },
        ];
      }

      case 'PostOwnerReply': {
        const { thread, takenOver, messageIds } = accessible(state, { ownerId: command.data.ownerId });
        if (!isAssistantOwner(thread, { ownerId: command.data.ownerId })) throw notFound();
        if (!takenOver) throw new DomainError('conflict', integrationMessages.takeOverFirst);
        const { messageId, text, language } = command.data;
        if (recentHas(messageIds, messageId)) return [];
        return [
          {
            type: 'MessagePosted',
            data: {
              messageId,
              threadId: thread.threadId,
              role: 'assistant',
              text,
              channel: thread.channel,
              language,
              runId: null,
              author: 'owner',
            },
          },
        ];
      }

      case 'DeleteThread': {
        const { thread } = accessible(state, command.data.requester);
        return [{ type: 'ThreadDeleted', data: { threadId: thread.threadId } }];
      }

      case 'GiveFeedback': {
        const current = writable(state, command.data.requester);
        const { messageId, rating, comment, authorKey, source } = command.data;
        if (!recentHas(current.messageIds, messageId))
          throw new DomainError('not_found', threadMessages.messageNotFound);
        if (recentGet(current.feedback, `${messageId}|${authorKey}`) === `${rating}|${comment ?? ''}`) return [];
        const { thread } = current;
        return [
          {
            type: 'FeedbackGiven',
            data: {
              messageId,
              threadId: thread.threadId,
              assistantId: thread.assistantId,
              rating,
              comment,
              authorKey,
              source,
              isPublic: thread.isPublic,
            },
          },
        ];
      }
    }
  },
};
