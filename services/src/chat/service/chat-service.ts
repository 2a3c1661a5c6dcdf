import {
  chatMessages,
  detectLanguage,
  limits,
  messages,
  type AllPosition,
  streamIds,
  type Channel,
  type LimitKind,
  type MessageDto,
  type CreatedRunDto,
  type RunDto,
  type ThreadDto,
} from '@kesher/contracts';
import { assistantQueries, type AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import { threadQueries, type RunRow } from '@kesher/projections/threads/threads.queries';
import type { LimitViolations } from '../../analytics/limit-violations.js';
import { ApiError } from '../../api/api-error.js';
import { threadDecider, type ThreadCommand } from '../../domain/thread/thread.decider.js';
import type { CommandContext, CommandHandler } from '../../platform/commands/command-handler.js';
import { handleSequence } from '../../platform/commands/command-sequence.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { DomainError } from '../../platform/commands/decider.js';
import type { AwaitReadModels, ReadModelProgress } from '../../platform/projections/read-model-progress.js';
import { createWriteMarks } from '../../platform/projections/write-marks.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import type { MessageQuota } from '../../plans/message-quota.js';
import type { RunStreamHub } from '../run-stream-hub.js';
import { seconds, toMessageDto, toRunDto, toThreadDto } from './chat-dtos.js';
import { actorOf, authorKeyOf, newId, readerOf, shareTokenHashOf, writerOf, type Chatter } from './chatter.js';
import type { PublicChatLimits } from './public-chat-limits.js';
import { followRunEvents, type RunStreamMessage } from './run-events.js';
import { utcDay, type VisitorAnswers, type VisitorDay } from '../visitor-answers/visitor-answers.js';

/** Until the visitor's day is over (UTC), when their daily allowance opens again. */
const secondsToNextUtcDay = (now: Date) => Math.max(1, Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000));

/** A visitor held by the rate limits (`wait` ms until allowed, 0 when allowed): 429 with when to come back. */
function throttled(wait: number) {
  if (wait > 0) throw new ApiError(429, messages.tooManyRequests, { 'retry-after': String(Math.ceil(wait / 1000)) });
}

/** Threads and runs remembered per process for chat turns (oldest forgotten first). */
const KNOWN_THREADS = 20_000;
const KNOWN_RUNS = 5_000;

export interface ChatServiceDeps {
  handle: CommandHandler;
  /** For a run posted with its message: both decided on the thread and appended together. */
  eventStore: EventStore;
  readDb: Sql;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  /** A run nobody finished within this time is expired. */
  runDeadlineSeconds: number;
  /** Live answers: in-process when the ai-runner shares this process, LISTEN/NOTIFY across processes. */
  runStreams?: RunStreamHub;
  /** Wakes a followed run when the threads read model moves, instead of re-reading it on a timer. */
  readModels?: ReadModelProgress;
  /** The plan's monthly message limit of the assistant's owner; absent, messages are not counted against one. */
  messageQuota?: MessageQuota;
  /** Rate limits on visitors' messages (per session, address and share link) and conversation starts (per address); absent, none apply. */
  publicChatLimits?: PublicChatLimits;
  /** Visitors' answers per day, for the assistant's daily allowance per visitor; absent, none applies. */
  visitorAnswers?: VisitorAnswers;
  /** Where refusals by the plan's monthly limit and the assistant's chat_limit are recorded (analytics). */
  limitViolations?: LimitViolations;
}

/** What a use case needs to know about the call it serves: its id (the events' correlation) and the caller's address. */
export interface ChatCall {
  correlationId: string;
  ip: string;
}

/**
 * The chat's use cases, shared by the signed-in routes and the public ones: they differ only in who is
 * chatting (and how that is proven), never in what chatting does. Ids arrive parsed; refusals are thrown
 * as ApiError / DomainError with the spec's texts, which the API's one error handler renders.
 */
export function createChatService(deps: ChatServiceDeps) {
  const threads = threadQueries(deps.readDb);
  const assistants = assistantQueries(deps.readDb);
  const contextOf = (call: ChatCall, chatter: Chatter): CommandContext => ({ actor: actorOf(chatter), correlationId: call.correlationId, now: deps.clock() });
  const decideOnThread = (call: ChatCall, chatter: Chatter, threadId: string, command: ThreadCommand) =>
    deps.handle(threadDecider, streamIds.thread(threadId), command, contextOf(call, chatter));
  /** A write the caller's next read must see: answered once the read models have it. */
  async function write(call: ChatCall, chatter: Chatter, threadId: string, command: ThreadCommand) {
    const result = await decideOnThread(call, chatter, threadId, command);
    if (result.appended) await deps.awaitReadModels(result.appended.position, result.events.map((event) => event.type));
    return result;
  }
  // The two writes of every chat turn (the message, the run) answer without waiting for the projector;
  // the thread's next read waits instead (see write-marks.ts).
  const marks = createWriteMarks({ awaitReadModels: deps.awaitReadModels });
  async function writeFast(call: ChatCall, chatter: Chatter, threadId: string, command: ThreadCommand) {
    const result = await decideOnThread(call, chatter, threadId, command);
    if (result.appended) marks.note(threadId, result.appended.position, result.events.map((event) => event.type));
    return result;
  }

  /** A limit refused a message: recorded for the owner's limits page (LimitViolated) before the refusal is sent. */
  const refused = (call: ChatCall, chatter: Chatter, assistant: AssistantRow, kind: LimitKind, limit: number, used: number) =>
    deps.limitViolations?.record(contextOf(call, chatter), {
      ownerId: assistant.owner_id,
      kind,
      limit,
      used,
      requested: null,
      assistantId: assistant.id,
      refused: chatter.kind === 'owner' ? 'owner' : 'visitor',
    });

  /**
   * The thread's assistant, read fresh. A visitor's conversation lives only as long as the share link it
   * was opened through (`link`, the sha-256 of its token; null on threads recorded before links were
   * noted): once the owner revokes or rotates it, writing is refused (403, as the decider also decides)
   * and so is reading — 404, exactly as a bad link is answered — or whoever held the old link would keep
   * reading the conversation the owner meant to end.
   */
  async function assistantFor(chatter: Chatter, assistantId: string, link: string | null, purpose: 'read' | 'write') {
    const assistant = await assistants.findById(assistantId);
    if (!assistant) throw new ApiError(404, messages.assistantNotFound);
    if (chatter.kind === 'visitor' && (!assistant.share_token || (link !== null && link !== shareTokenHashOf(assistant)))) {
      throw new ApiError(purpose === 'read' ? 404 : 403, chatMessages.invalidShareLink);
    }
    return assistant;
  }

  /**
   * Which assistant each thread talks to, per reader that has reached it. Neither a thread's assistant
   * nor who may reach it ever changes, so a chat turn asks the read model for the thread only once;
   * the assistant (its share link, its limits) is read fresh every time. A thread deleted since is
   * refused by the decider on every write, and found missing by the reads, which then check again.
   */
  const reached = new Map<string, { assistantId: string; assistantOwnerId: string; link: string | null }>();
  const reachKey = (chatter: Chatter, threadId: string) => `${chatter.kind === 'owner' ? chatter.ownerId : chatter.sessionHash}|${threadId}`;

  async function threadOf(chatter: Chatter, threadId: string, purpose: 'read' | 'write' = 'read') {
    const thread = await threads.thread(readerOf(chatter), threadId);
    if (!thread) throw new ApiError(404, chatMessages.threadNotFound);
    const assistant = await assistantFor(chatter, thread.assistant_id, thread.share_token_hash, purpose);
    const key = reachKey(chatter, threadId);
    reached.delete(key);
    reached.set(key, { assistantId: thread.assistant_id, assistantOwnerId: assistant.owner_id, link: thread.share_token_hash });
    if (reached.size > KNOWN_THREADS) reached.delete(reached.keys().next().value!);
    return { thread, assistant };
  }

  /** The thread's assistant for a chat turn: one read when the thread was reached before, two the first time. */
  async function turnOf(chatter: Chatter, threadId: string, purpose: 'read' | 'write'): Promise<{ assistant: AssistantRow }> {
    const known = reached.get(reachKey(chatter, threadId));
    return known ? { assistant: await assistantFor(chatter, known.assistantId, known.link, purpose) } : threadOf(chatter, threadId, purpose);
  }

  /**
   * Runs this process requested a moment ago, as their request recorded them: their stream starts
   * following at once instead of first asking the read model for a run it may not hold yet.
   */
  const requested = new Map<string, { key: string; row: RunRow }>();

  /**
   * A run as the read model has it. Right after its request the projector may not have it yet: only on
   * such a miss does the read wait for the thread's own writes, so the common case costs one query.
   */
  async function runAfterOwnWrites(chatter: Chatter, threadId: string, runId: string): Promise<RunRow | undefined> {
    const row = await threads.run(readerOf(chatter), threadId, runId);
    if (row) return row;
    await marks.settle(threadId);
    return threads.run(readerOf(chatter), threadId, runId);
  }

  /** A visitor of the assistant today, as the daily allowance knows them. */
  const visitorDay = (call: ChatCall, chatter: Extract<Chatter, { kind: 'visitor' }>, assistant: AssistantRow): VisitorDay => ({
    assistantId: assistant.id,
    sessionHash: chatter.sessionHash,
    ip: call.ip,
    day: utcDay(deps.clock()),
  });

  /** The owner's monthly quota, read alongside the assistant when the thread was reached before (its owner never changes). */
  function earlyQuota(chatter: Chatter, threadId: string) {
    const ownerId = reached.get(reachKey(chatter, threadId))?.assistantOwnerId;
    const early = ownerId ? deps.messageQuota?.check(ownerId) : undefined;
    early?.catch(() => undefined);
    return early;
  }

  /**
   * Whether the assistant may answer once more: the owner's monthly quota (whoever chats: the owner, or a
   * visitor by share link) and, for a visitor, their daily allowance. Only answers count (issue 21 item 12),
   * so these are checked for every run and for every message that asks for one. A visitor is never told
   * about the owner's plan or its upgrade: to them the assistant is simply not available right now.
   */
  async function admitAnswer(call: ChatCall, chatter: Chatter, assistant: AssistantRow, early?: ReturnType<typeof earlyQuota>) {
    const visitor = chatter.kind === 'visitor' && deps.visitorAnswers ? visitorDay(call, chatter, assistant) : undefined;
    const [quota, answeredToday] = await Promise.all([early ?? deps.messageQuota?.check(assistant.owner_id), visitor && deps.visitorAnswers?.used(visitor)]);
    if (quota && !quota.allowed) {
      await refused(call, chatter, assistant, 'monthly_messages', quota.limit, quota.used);
      throw new ApiError(403, chatter.kind === 'owner' ? chatMessages.monthlyLimitReached(quota.limit) : chatMessages.assistantUnavailable);
    }
    if (answeredToday !== undefined && answeredToday >= (assistant.visitor_daily_limit ?? limits.visitorDailyLimitDefault)) {
      throw new ApiError(429, chatMessages.assistantUnavailable, { 'retry-after': String(secondsToNextUtcDay(deps.clock())) });
    }
  }

  /**
   * The checks before a chatter's message is accepted (POST …/messages, or with a run): the thread and
   * its assistant, visitors' rate limits, and whether the assistant may answer it.
   */
  async function admitMessage(call: ChatCall, chatter: Chatter, threadId: string, externalAssistantId?: string): Promise<{ assistant: AssistantRow }> {
    const early = earlyQuota(chatter, threadId);
    const { assistant } = await turnOf(chatter, threadId, 'write');
    // A run for another assistant is refused before anything is counted against a limit.
    if (externalAssistantId !== undefined && assistant.external_id !== externalAssistantId) throw new ApiError(404, messages.assistantNotFound);
    if (chatter.kind === 'visitor') {
      throttled(deps.publicChatLimits?.take({ sessionHash: chatter.sessionHash, ip: call.ip, assistantId: assistant.id }) ?? 0);
    }
    await admitAnswer(call, chatter, assistant, early);
    return { assistant };
  }

  /** The command posting a chatter's message, and the row the read model will hold once it is accepted. */
  function userMessage(chatter: Chatter, assistant: AssistantRow, content: string) {
    const messageId = newId('msg');
    const command: ThreadCommand = {
      type: 'PostUserMessage',
      data: { requester: writerOf(chatter, assistant), messageId, text: content, language: detectLanguage(content), chatLimit: assistant.chat_limit },
    };
    // The decider accepts exactly this message or refuses it: this is what the read model will hold.
    return { command, row: { id: messageId, role: 'user' as const, text: content, run_id: null, sources: [], created_at: seconds(deps.clock()) } };
  }

  /** A message refused by the conversation's chat_limit is recorded for the owner's limits page, then the refusal goes on. */
  const refusedByChatLimit = (call: ChatCall, chatter: Chatter, assistant: AssistantRow) => async (error: unknown): Promise<never> => {
    if (error instanceof DomainError && error.message === chatMessages.chatLimitReached(assistant.chat_limit)) {
      await refused(call, chatter, assistant, 'chat_limit', assistant.chat_limit, assistant.chat_limit);
    }
    throw error;
  };

  return {
    async start(call: ChatCall, chatter: Chatter, assistant: AssistantRow, channel: Channel) {
      if (chatter.kind === 'visitor') {
        throttled(deps.publicChatLimits?.start(call.ip) ?? 0);
      }
      const threadId = newId('thread');
      await write(call, chatter, threadId, {
        type: 'StartThread',
        data: {
          threadId,
          assistantId: assistant.id,
          assistantOwnerId: assistant.owner_id,
          ownerId: chatter.kind === 'owner' ? chatter.ownerId : null,
          visitorSessionHash: chatter.kind === 'visitor' ? chatter.sessionHash : null,
          isPublic: chatter.kind === 'visitor',
          channel,
          shareTokenHash: chatter.kind === 'visitor' ? shareTokenHashOf(assistant) : null,
        },
      });
      return { thread_id: threadId, id: threadId, created_at: seconds(deps.clock()) };
    },

    async post(call: ChatCall, chatter: Chatter, threadId: string, content: string): Promise<MessageDto> {
      const { assistant } = await admitMessage(call, chatter, threadId);
      const message = userMessage(chatter, assistant, content);
      await writeFast(call, chatter, threadId, message.command).catch(refusedByChatLimit(call, chatter, assistant));
      return toMessageDto({ ...message.row, thread_id: threadId });
    },

    async messages(chatter: Chatter, threadId: string) {
      await threadOf(chatter, threadId);
      await marks.settle(threadId);
      return { object: 'list' as const, data: (await threads.messages(readerOf(chatter), threadId)).map(toMessageDto) };
    },

    /**
     * Asks the assistant to answer. With `content` (the call's additional_messages), the message is posted
     * first, with every check POST …/messages makes, and both are recorded in one append: the chat's send
     * is one call and one write instead of two of each.
     */
    async requestRun(call: ChatCall, chatter: Chatter, threadId: string, externalAssistantId: string, content?: string): Promise<CreatedRunDto> {
      let assistant: AssistantRow;
      if (content === undefined) {
        const early = earlyQuota(chatter, threadId);
        ({ assistant } = await turnOf(chatter, threadId, 'write'));
        if (assistant.external_id !== externalAssistantId) throw new ApiError(404, messages.assistantNotFound);
        await admitAnswer(call, chatter, assistant, early);
      } else {
        ({ assistant } = await admitMessage(call, chatter, threadId, externalAssistantId));
      }
      const runId = newId('run');
      const now = deps.clock();
      const deadlineAt = new Date(now.getTime() + deps.runDeadlineSeconds * 1000);
      const request: ThreadCommand = {
        type: 'RequestRun',
        data: { requester: writerOf(chatter, assistant), runId, assistantId: assistant.id, deadlineAt: deadlineAt.toISOString(), now: now.toISOString() },
      };
      const message = content === undefined ? undefined : userMessage(chatter, assistant, content);
      let recorded: { position: AllPosition } | undefined;
      if (message) {
        const result = await handleSequence(deps.eventStore, threadDecider, streamIds.thread(threadId), [{ command: () => message.command }, { command: () => request }], contextOf(call, chatter)).catch(
          refusedByChatLimit(call, chatter, assistant),
        );
        if (result.appended) marks.note(threadId, result.appended.position, result.events.map((event) => event.type));
        recorded = result.appended;
      } else {
        recorded = (await writeFast(call, chatter, threadId, request)).appended;
      }
      // The run holds its place in the owner's month and the visitor's day until it settles; a failed or expired one gives it back.
      if (recorded) {
        deps.messageQuota?.accepted(assistant.owner_id, recorded.position);
        if (chatter.kind === 'visitor') await deps.visitorAnswers?.requested(visitorDay(call, chatter, assistant), runId);
      }
      // A new run is queued; the worker may already be on it, which the next read (or the stream) shows.
      const row: RunRow = { id: runId, thread_id: threadId, assistant_id: assistant.id, status: 'queued', error: null, message_id: null, deadline_at: deadlineAt, created_at: seconds(now), settled_at: null };
      requested.set(runId, { key: reachKey(chatter, threadId), row });
      if (requested.size > KNOWN_RUNS) requested.delete(requested.keys().next().value!);
      const run = toRunDto(row, assistant, deps.clock());
      return message ? { ...run, user_message: toMessageDto({ ...message.row, thread_id: threadId }) } : run;
    },

    async run(chatter: Chatter, threadId: string, runId: string): Promise<RunDto> {
      const { assistant } = await turnOf(chatter, threadId, 'read');
      const row = await runAfterOwnWrites(chatter, threadId, runId);
      if (!row) {
        // Say which is missing: the thread (deleted since it was reached), or only the run.
        await threadOf(chatter, threadId);
        throw new ApiError(404, chatMessages.runNotFound);
      }
      return toRunDto(row, assistant, deps.clock());
    },

    /**
     * One run's answer as it is produced: `delta` messages (id = sequence number, so a client reconnecting
     * with Last-Event-ID resumes after what it has), then exactly one of `completed` (with the stored
     * message: the final word), `failed` or `expired`. Access is checked before anything is returned, so
     * a refusal is an ordinary error answer rather than a broken stream.
     */
    async followRun(chatter: Chatter, threadId: string, runId: string, options: { afterSeq: number }): Promise<(signal: AbortSignal) => AsyncGenerator<RunStreamMessage>> {
      const found = requested.get(runId);
      // Requested here by this reader a moment ago: its stream need not wait for the read model to show the
      // run. The assistant is still read again: its link may have been rotated since (issue 21 item 15).
      const own = found?.key === reachKey(chatter, threadId) && found.row.thread_id === threadId ? found : undefined;
      const { assistant } = await turnOf(chatter, threadId, 'read');
      const mark = deps.readModels?.position('threads');
      const row = own && deps.runStreams ? undefined : await runAfterOwnWrites(chatter, threadId, runId);
      const deadlineAt = row?.deadline_at ?? own?.row.deadline_at;
      if (!deadlineAt) {
        await threadOf(chatter, threadId);
        throw new ApiError(404, chatMessages.runNotFound);
      }
      return (signal) =>
        followRunEvents(
          { threads, reader: readerOf(chatter), clock: deps.clock, runStreams: deps.runStreams, readModels: deps.readModels },
          {
            assistant,
            threadId,
            runId,
            deadlineAt,
            first: row,
            mark,
            afterSeq: options.afterSeq,
            signal,
            // The answer was recorded a moment ago: the chat's next read of the thread waits for the read model to show it.
            onOutcome: (position) => marks.note(threadId, position, ['MessagePosted', 'RunCompleted', 'RunFailed', 'RunExpired']),
          },
        );
    },

    async rename(call: ChatCall, chatter: Chatter, threadId: string, title: string): Promise<ThreadDto> {
      const { assistant } = await threadOf(chatter, threadId, 'write');
      await write(call, chatter, threadId, { type: 'RenameThread', data: { requester: readerOf(chatter), title } });
      const renamed = await threads.thread(readerOf(chatter), threadId);
      if (!renamed) throw new ApiError(404, chatMessages.threadNotFound);
      return toThreadDto(renamed, assistant);
    },

    /** One conversation as Chat History lists it (the owner opening a visitor's one learns it is `is_public`). */
    async describe(chatter: Chatter, threadId: string): Promise<ThreadDto> {
      const { thread, assistant } = await threadOf(chatter, threadId);
      return toThreadDto(thread, assistant);
    },

    async remove(call: ChatCall, chatter: Chatter, threadId: string) {
      await threadOf(chatter, threadId, 'write');
      await write(call, chatter, threadId, { type: 'DeleteThread', data: { requester: readerOf(chatter) } });
      reached.delete(reachKey(chatter, threadId));
      return { detail: 'Thread deleted' };
    },

    async feedback(
      call: ChatCall,
      chatter: Chatter,
      body: { thread_id: string; message_id: string; rating: 'like' | 'dislike'; comment: string | null; source: string },
    ) {
      const { assistant } = await threadOf(chatter, body.thread_id, 'write');
      const { rating, comment, source } = body;
      await write(call, chatter, body.thread_id, {
        type: 'GiveFeedback',
        data: { requester: writerOf(chatter, assistant), messageId: body.message_id, rating, comment, authorKey: authorKeyOf(chatter), source },
      });
      return { detail: 'Thank you for your feedback!', rating };
    },

    /** Chat History: the owner's conversations with one assistant, including visitors' public ones. */
    async listForAssistant(ownerId: string, assistant: AssistantRow) {
      return (await threads.threadsOfAssistant(ownerId, assistant.id)).map((row) => toThreadDto(row, assistant));
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
