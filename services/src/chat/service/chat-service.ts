import {
  chatMessages,
  detectLanguage,
  limits,
  messages,
  streamIds,
  threadMessages,
  type Channel,
  type LimitKind,
  type MessageDto,
  type CreatedRunDto,
  type RunDto,
  type ThreadDto,
} from '@kesher/contracts';
import type { AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import { threadQueries, type RunRow } from '@kesher/projections/threads/threads.queries';
import type { LimitViolations } from '../../analytics/index.js';
import { threadDecider, type ThreadCommand, type ThreadState } from '../../domain/thread/thread.decider.js';
import { foldStream } from '../../platform/commands/aggregate-stream.js';
import type { CommandContext, CommandHandler, Loaded } from '../../platform/commands/command-handler.js';
import { StreamDeletedError, type EventStore } from '../../platform/event-store/event-store.port.js';
import { DomainError } from '../../platform/commands/decider.js';
import type { AwaitReadModels } from '../../platform/projections/read-model-progress.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import type { MessageQuota } from '../../plans/index.js';
import { createChatAssistants, type ChatAssistant } from './chat-assistant.js';
import { seconds, toMessageDto, toRunDto, toThreadDto } from './chat-dtos.js';
import { actorOf, authorKeyOf, newId, readerOf, shareTokenHashOf, writerOf, type Chatter } from './chatter.js';
import type { PublicChatLimits } from './public-chat-limits.js';
import type { RunGrants } from './run-grants.js';
import { followRunEvents, type RunEventsDeps, type RunStreamMessage } from './run-events.js';
import { recordedOutcomeOf, threadViewOf, visibleTo, type ThreadView } from './thread-view.js';
import { utcDay, type VisitorAnswers, type VisitorDay } from '../visitor-answers/visitor-answers.js';

/** Until the visitor's day is over (UTC), when their daily allowance opens again. */
const secondsToNextUtcDay = (now: Date) =>
  Math.max(
    1,
    Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000),
  );

/** A visitor held by the rate limits (`wait` ms until allowed, 0 when allowed): 429 with when to come back. */
function throttled(wait: number) {
  if (wait > 0)
    throw new DomainError('too_many', messages.tooManyRequests, { retryAfterSeconds: Math.ceil(wait / 1000) });
}

export interface ChatServiceDeps {
  /** Decides on the thread as the call read it (no second read of its stream), appends after that revision. */
  handle: CommandHandler;
  /** The write side: every chat call reads its thread's stream, and the assistant's, from here. */
  eventStore: EventStore;
  /** The read models, for Chat History only (a list of conversations). */
  readDb: Sql;
  /** Start, rename, delete and feedback answer once the read models show them: the lists show them. */
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  /** A run nobody finished within this time is expired. */
  runDeadlineSeconds: number;
  /** The runs' output as the ai-runner writes it (one durable stream, readable from any API process). */
  runOutput: RunEventsDeps['output'];
  /** The plan's monthly message limit of the assistant's owner; absent, messages are not counted against one. */
  messageQuota?: MessageQuota;
  /** Rate limits on visitors' messages (per session, address and share link) and conversation starts (per address); absent, none apply. */
  publicChatLimits?: PublicChatLimits;
  /** Visitors' answers per day, for the assistant's daily allowance per visitor; absent, none applies. */
  visitorAnswers?: VisitorAnswers;
  /** Where refusals by the plan's monthly limit and the assistant's chat_limit are recorded (analytics). */
  limitViolations?: LimitViolations;
  /** Stream grants for the owner's runs (run-grants.ts); absent, every stream is opened with the session. */
  runGrants?: RunGrants;
}

/** How many assistants' ids a chat service keeps (see `assistantsMet`). */
const ASSISTANTS_MET = 10_000;

/** A thread as one read of its stream left it: what the chat shows, and what its decider decides on. */
interface Reached {
  view: ThreadView;
  loaded: Loaded<ThreadState>;
}

/** What a use case needs to know about the call it serves: its id (the events' correlation) and the caller's address. */
export interface ChatCall {
  correlationId: string;
  ip: string;
}

/**
 * The chat's use cases, shared by the signed-in routes and the public ones: they differ only in who is
 * chatting (and how that is proven), never in what chatting does. Ids arrive parsed; refusals are thrown
 * as DomainError with the spec's texts (never the HTTP error class), which the API's one error handler renders.
 *
 * Nothing an answer depends on is remembered between calls: every call reads its thread's stream and its
 * assistant's stream (the write side), so any API process answers any call, and the read right after a
 * write sees it without waiting for the projector. (The ids of assistants met are kept, as they never
 * change, only to read an assistant beside its thread.) Only Chat History (a list) reads the threads read model.
 */
export function createChatService(deps: ChatServiceDeps) {
  const threads = threadQueries(deps.readDb);
  const loadChatAssistant = createChatAssistants(deps.eventStore);
  /**
   * The assistants this process has chatted with, by external id. An assistant's id and owner never
   * change, so a run naming one met before reads its stream and its owner's month beside the thread's
   * stream instead of after it; what is read that way is used only when the thread names the same
   * assistant and owner. A head start, never an answer: the assistant's stream is still read at every call.
   */
  const assistantsMet = new Map<string, { id: string; ownerId: string }>();
  const meet = (assistant: ChatAssistant) => {
    if (assistantsMet.has(assistant.external_id)) return;
    // Oldest first out: a process meets at most this many assistants' ids at a time (~100 bytes each).
    if (assistantsMet.size >= ASSISTANTS_MET) assistantsMet.delete(assistantsMet.keys().next().value!);
    assistantsMet.set(assistant.external_id, { id: assistant.id, ownerId: assistant.owner_id });
  };
  const contextOf = (call: ChatCall, chatter: Chatter): CommandContext => ({
    actor: actorOf(chatter),
    correlationId: call.correlationId,
    now: deps.clock(),
  });
  /**
   * Decides `commands` (one, or several appended together) on the thread as this call read it: no second
   * read of the stream; another writer in between makes the append conflict, and the handler reads again.
   */
  const decideOnThread = (
    call: ChatCall,
    chatter: Chatter,
    thread: Reached,
    commands: ThreadCommand | ThreadCommand[],
  ) =>
    deps.handle(threadDecider, streamIds.thread(thread.view.row.id), commands, contextOf(call, chatter), {
      from: thread.loaded,
    });
  /** A write that lists show (Chat History): answered once the read models have it. */
  async function write(call: ChatCall, chatter: Chatter, thread: Reached, command: ThreadCommand) {
    const result = await decideOnThread(call, chatter, thread, command);
    if (result.appended)
      await deps.awaitReadModels(
        result.appended.position,
        result.events.map((event) => event.type),
      );
    return result;
  }

  /** A limit refused a message: recorded for the owner's limits page (LimitViolated) before the refusal is sent. */
  const refused = (
    call: ChatCall,
    chatter: Chatter,
    assistant: ChatAssistant,
    kind: LimitKind,
    limit: number,
    used: number,
  ) =>
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
   * The thread as its stream has it now, read once: the view the chat answers from, and the decider's
   * state and revision its writes are decided on. Undefined: never started, or its stream was erased.
   */
  async function currentThread(threadId: string): Promise<Reached | undefined> {
    let stored;
    try {
      stored = await deps.eventStore.readStream(streamIds.thread(threadId));
    } catch (error) {
      if (error instanceof StreamDeletedError) return undefined;
      throw error;
    }
    const view = threadViewOf(stored);
    if (!view) return undefined;
    const { state, revision } = foldStream(threadDecider, stored);
    return { view, loaded: { state, revision } };
  }

  /** The thread, if the chatter may read it; anyone else is told it does not exist (404), so ids cannot be probed. */
  /**
   * A run's stream once access is settled: its output after `afterSeq`, and its outcome as recorded on its
   * thread (read afresh each time the follower asks, undefined while it runs).
   */
  const follower =
    (threadId: string, runId: string, deadlineAt: Date, afterSeq: number) =>
    (signal: AbortSignal): AsyncGenerator<RunStreamMessage> =>
      followRunEvents(
        { output: deps.runOutput, clock: deps.clock },
        {
          threadId,
          runId,
          deadlineAt,
          afterSeq,
          signal,
          recordedOutcome: async () => {
            const latest = await currentThread(threadId);
            return latest && recordedOutcomeOf(latest.view, runId);
          },
        },
      );

  async function threadFor(chatter: Chatter, threadId: string): Promise<Reached> {
    const thread = await currentThread(threadId);
    if (!thread || !visibleTo(thread.view, readerOf(chatter)))
      throw new DomainError('not_found', chatMessages.threadNotFound);
    return thread;
  }

  /**
   * The thread's assistant, read fresh from its stream. A visitor's conversation lives only as long as the
   * share link it was opened through (`link`, the sha-256 of its token; null on threads recorded before
   * links were noted): once the owner revokes or rotates it, writing is refused (403, as the decider also
   * decides) and so is reading — 404, exactly as a bad link is answered — or whoever held the old link
   * would keep reading the conversation the owner meant to end.
   */
  async function assistantFor(
    chatter: Chatter,
    view: ThreadView,
    purpose: 'read' | 'write',
    early?: Promise<ChatAssistant | undefined>,
  ): Promise<ChatAssistant> {
    const assistant = await (early ?? loadChatAssistant(view.started.assistantId));
    if (!assistant) throw new DomainError('not_found', messages.assistantNotFound);
    meet(assistant);
    const link = view.row.share_token_hash;
    if (
      chatter.kind === 'visitor' &&
      (!assistant.share_token || (link !== null && link !== shareTokenHashOf(assistant)))
    ) {
      throw new DomainError(purpose === 'read' ? 'not_found' : 'forbidden', chatMessages.invalidShareLink);
    }
    return assistant;
  }

  /** The thread and its assistant, both from the write side: two stream reads. */
  async function reach(chatter: Chatter, threadId: string, purpose: 'read' | 'write') {
    const thread = await threadFor(chatter, threadId);
    return { thread, view: thread.view, assistant: await assistantFor(chatter, thread.view, purpose) };
  }

  /**
   * The thread and its assistant for a message or a run, with the owner's monthly quota read beside the
   * assistant: the thread names the assistant's owner, whose quota it is.
   */
  async function reachToWrite(chatter: Chatter, threadId: string, externalAssistantId?: string) {
    // An assistant met before is read, with its owner's month, beside the thread: one round trip less.
    const met = externalAssistantId === undefined ? undefined : assistantsMet.get(externalAssistantId);
    const early = met && { assistant: loadChatAssistant(met.id), quota: deps.messageQuota?.check(met.ownerId) };
    // Unused when the thread is refused, or names another assistant: nobody waits for them then.
    early?.assistant.catch(() => undefined);
    early?.quota?.catch(() => undefined);
    const thread = await threadFor(chatter, threadId);
    const { assistantId, assistantOwnerId } = thread.view.started;
    const same = met?.id === assistantId && met.ownerId === assistantOwnerId ? early : undefined;
    const quota = same ? same.quota : deps.messageQuota?.check(assistantOwnerId);
    // Awaited below unless the assistant's read refuses first: then nobody waits for it.
    quota?.catch(() => undefined);
    const assistant = await assistantFor(chatter, thread.view, 'write', same?.assistant);
    return { thread, assistant, quota };
  }

  /** A visitor of the assistant today, as the daily allowance knows them. */
  const visitorDay = (
    call: ChatCall,
    chatter: Extract<Chatter, { kind: 'visitor' }>,
    assistant: ChatAssistant,
  ): VisitorDay => ({
    assistantId: assistant.id,
    sessionHash: chatter.sessionHash,
    ip: call.ip,
    day: utcDay(deps.clock()),
  });

  /** The visitor's answers today, for their daily allowance; nothing for an owner. */
  function answeredTodayBy(call: ChatCall, chatter: Chatter, assistant: ChatAssistant) {
    return chatter.kind === 'visitor' && deps.visitorAnswers
      ? deps.visitorAnswers.used(visitorDay(call, chatter, assistant))
      : Promise.resolve(undefined);
  }

  /**
   * Whether the assistant may answer once more: the owner's monthly quota (whoever chats: the owner, or a
   * visitor by share link) and, for a visitor, their daily allowance. Only answers count (issue 21 item 12),
   * so these are checked for every run and for every message that asks for one. A visitor is never told
   * about the owner's plan or its upgrade: to them the assistant is simply not available right now.
   */
  async function admitAnswer(
    call: ChatCall,
    chatter: Chatter,
    assistant: ChatAssistant,
    early?: ReturnType<MessageQuota['check']>,
    earlyAnsweredToday?: Promise<number | undefined>,
  ) {
    const [quota, answeredToday] = await Promise.all([
      early ?? deps.messageQuota?.check(assistant.owner_id),
      earlyAnsweredToday ?? answeredTodayBy(call, chatter, assistant),
    ]);
    if (quota && !quota.allowed) {
      await refused(call, chatter, assistant, 'monthly_messages', quota.limit, quota.used);
      throw new DomainError(
        'forbidden',
        chatter.kind === 'owner' ? chatMessages.monthlyLimitReached(quota.limit) : chatMessages.assistantUnavailable,
      );
    }
    if (
      answeredToday !== undefined &&
      answeredToday >= (assistant.visitor_daily_limit ?? limits.visitorDailyLimitDefault)
    ) {
      throw new DomainError('too_many', chatMessages.assistantUnavailable, {
        retryAfterSeconds: secondsToNextUtcDay(deps.clock()),
      });
    }
  }

  /**
   * The checks before a chatter's message is accepted (POST …/messages, or with a run): the thread and
   * its assistant, visitors' rate limits, and whether the assistant may answer it.
   */
  async function admitMessage(
    call: ChatCall,
    chatter: Chatter,
    threadId: string,
    externalAssistantId?: string,
  ): Promise<{ thread: Reached; assistant: ChatAssistant }> {
    const { thread, assistant, quota } = await reachToWrite(chatter, threadId, externalAssistantId);
    // A run for another assistant is refused before anything is counted against a limit.
    if (externalAssistantId !== undefined && assistant.external_id !== externalAssistantId)
      throw new DomainError('not_found', messages.assistantNotFound);
    // The visitor's answers today are read beside the draw on their rate limits: a read, which a refusal
    // of the draw leaves unused, so the message waits for one round trip instead of two.
    const answeredToday = answeredTodayBy(call, chatter, assistant);
    answeredToday.catch(() => undefined);
    if (chatter.kind === 'visitor') {
      throttled(
        (await deps.publicChatLimits?.take({
          sessionHash: chatter.sessionHash,
          ip: call.ip,
          assistantId: assistant.id,
        })) ?? 0,
      );
    }
    await admitAnswer(call, chatter, assistant, quota, answeredToday);
    return { thread, assistant };
  }

  /** The command posting a chatter's message, and the row it records once it is accepted. */
  function userMessage(chatter: Chatter, assistant: ChatAssistant, content: string) {
    const messageId = newId('msg');
    const command: ThreadCommand = {
      type: 'PostUserMessage',
      data: {
        requester: writerOf(chatter, assistant),
        messageId,
        text: content,
        language: detectLanguage(content),
        chatLimit: assistant.chat_limit,
      },
    };
    // The decider accepts exactly this message or refuses it: this is what the thread will show.
    return {
      command,
      row: {
        id: messageId,
        role: 'user' as const,
        text: content,
        run_id: null,
        sources: [],
        created_at: seconds(deps.clock()),
      },
    };
  }

  /** A message refused by the conversation's chat_limit is recorded for the owner's limits page, then the refusal goes on. */
  const refusedByChatLimit =
    (call: ChatCall, chatter: Chatter, assistant: ChatAssistant) =>
    async (error: unknown): Promise<never> => {
      if (error instanceof DomainError && error.message === chatMessages.chatLimitReached(assistant.chat_limit)) {
        await refused(call, chatter, assistant, 'chat_limit', assistant.chat_limit, assistant.chat_limit);
      }
      throw error;
    };

  return {
    /**
     * `assistant` is what the route found (the owner's, or the one whose share link the visitor holds, on
     * the read model); the conversation starts with the assistant its stream has now, so a link rotated or
     * revoked a moment ago no longer opens one.
     */
    async start(call: ChatCall, chatter: Chatter, assistant: ChatAssistant, channel: Channel) {
      if (chatter.kind === 'visitor') {
        throttled((await deps.publicChatLimits?.start(call.ip)) ?? 0);
      }
      const current = await loadChatAssistant(assistant.id);
      if (!current || (chatter.kind === 'owner' && current.owner_id !== chatter.ownerId))
        throw new DomainError('not_found', messages.assistantNotFound);
      if (chatter.kind === 'visitor' && (!current.share_token || current.share_token !== assistant.share_token))
        throw new DomainError('not_found', chatMessages.invalidShareLink);
      const threadId = newId('thread');
      const result = await deps.handle(
        threadDecider,
        streamIds.thread(threadId),
        {
          type: 'StartThread',
          data: {
            threadId,
            assistantId: current.id,
            assistantOwnerId: current.owner_id,
            ownerId: chatter.kind === 'owner' ? chatter.ownerId : null,
            visitorSessionHash: chatter.kind === 'visitor' ? chatter.sessionHash : null,
            isPublic: chatter.kind === 'visitor',
            channel,
            shareTokenHash: chatter.kind === 'visitor' ? shareTokenHashOf(current) : null,
          },
        },
        contextOf(call, chatter),
        { expected: 'no_stream' },
      );
      // A new id is never taken (96 random bits); if it were, the thread is somebody else's: refused as the decider would.
      if (result.existed) throw new DomainError('conflict', threadMessages.exists);
      if (result.appended)
        await deps.awaitReadModels(
          result.appended.position,
          result.events.map((event) => event.type),
        );
      return { thread_id: threadId, id: threadId, created_at: seconds(deps.clock()) };
    },

    /** Answered as soon as the message is appended: the next read of the thread reads its stream. */
    async post(call: ChatCall, chatter: Chatter, threadId: string, content: string): Promise<MessageDto> {
      const { thread, assistant } = await admitMessage(call, chatter, threadId);
      const message = userMessage(chatter, assistant, content);
      await decideOnThread(call, chatter, thread, message.command).catch(refusedByChatLimit(call, chatter, assistant));
      return toMessageDto({ ...message.row, thread_id: threadId });
    },

    async messages(chatter: Chatter, threadId: string) {
      const { view } = await reach(chatter, threadId, 'read');
      return { object: 'list' as const, data: view.messages.map(toMessageDto) };
    },

    /**
     * Asks the assistant to answer. With `content` (the call's additional_messages), the message is posted
     * first, with every check POST …/messages makes, and both are recorded in one append: the chat's send
     * is one call and one write instead of two of each. Answered as soon as the append is done.
     */
    async requestRun(
      call: ChatCall,
      chatter: Chatter,
      threadId: string,
      externalAssistantId: string,
      content?: string,
    ): Promise<CreatedRunDto> {
      let assistant: ChatAssistant;
      let thread: Reached;
      if (content === undefined) {
        let quota: ReturnType<MessageQuota['check']> | undefined;
        ({ thread, assistant, quota } = await reachToWrite(chatter, threadId, externalAssistantId));
        if (assistant.external_id !== externalAssistantId)
          throw new DomainError('not_found', messages.assistantNotFound);
        await admitAnswer(call, chatter, assistant, quota);
      } else {
        ({ thread, assistant } = await admitMessage(call, chatter, threadId, externalAssistantId));
      }
      const runId = newId('run');
      const now = deps.clock();
      const deadlineAt = new Date(now.getTime() + deps.runDeadlineSeconds * 1000);
      const request: ThreadCommand = {
        type: 'RequestRun',
        data: {
          requester: writerOf(chatter, assistant),
          runId,
          assistantId: assistant.id,
          deadlineAt: deadlineAt.toISOString(),
          now: now.toISOString(),
        },
      };
      const message = content === undefined ? undefined : userMessage(chatter, assistant, content);
      // With its message, both are decided on the thread together and appended at once: a refusal of either stores neither.
      const recorded = (
        await decideOnThread(call, chatter, thread, message ? [message.command, request] : request).catch(
          refusedByChatLimit(call, chatter, assistant),
        )
      ).appended;
      // The run holds its place in the owner's month and the visitor's day until it settles; a failed or expired one gives it back.
      if (recorded) {
        await Promise.all([
          deps.messageQuota?.accepted(assistant.owner_id, recorded.position),
          chatter.kind === 'visitor' && deps.visitorAnswers?.requested(visitorDay(call, chatter, assistant), runId),
        ]);
      }
      // A new run is queued; the worker may already be on it, which the next read (or the stream) shows.
      const row: RunRow = {
        id: runId,
        thread_id: threadId,
        assistant_id: assistant.id,
        status: 'queued',
        error: null,
        message_id: null,
        deadline_at: deadlineAt,
        created_at: seconds(now),
        settled_at: null,
      };
      const run = toRunDto(row, assistant, deps.clock());
      // The owner's stream of this run opens on the grant alone (no session, no thread read); a visitor's
      // is read through the link they came by, which may be rotated meanwhile (the link's rule holds).
      const grant =
        chatter.kind === 'owner' && deps.runGrants
          ? { stream_grant: deps.runGrants.issue({ threadId, runId, deadlineAt }) }
          : {};
      return message
        ? { ...run, ...grant, user_message: toMessageDto({ ...message.row, thread_id: threadId }) }
        : { ...run, ...grant };
    },

    async run(chatter: Chatter, threadId: string, runId: string): Promise<RunDto> {
      const { view, assistant } = await reach(chatter, threadId, 'read');
      const row = view.runs.get(runId);
      if (!row) throw new DomainError('not_found', chatMessages.runNotFound);
      // A run being answered records its start with its answer (docs/chat.md): until then its claim says so.
      const answering = row.status === 'queued' && (await deps.runOutput.claimed(runId));
      return toRunDto(answering ? { ...row, status: 'in_progress' } : row, assistant, deps.clock());
    },

    /**
     * One run's answer as it is produced: `delta` messages (id = sequence number, so a client reconnecting
     * with Last-Event-ID resumes after what it has), then exactly one of `completed` (with the stored
     * message: the final word), `failed` or `expired`. Access and the run's deadline are read from the
     * thread's stream before anything is returned, so a refusal is an ordinary error answer rather than a
     * broken stream; the run's recorded outcome is read from the stream again whenever the follower asks.
     */
    async followRun(
      chatter: Chatter,
      threadId: string,
      runId: string,
      options: { afterSeq: number },
    ): Promise<(signal: AbortSignal) => AsyncGenerator<RunStreamMessage>> {
      // A visitor may follow only while the link they came by holds (the assistant's stream says); the
      // owner's access is the thread's own, so their stream costs no read of the assistant.
      const { view } =
        chatter.kind === 'visitor' ? await reach(chatter, threadId, 'read') : await threadFor(chatter, threadId);
      const run = view.runs.get(runId);
      if (!run) throw new DomainError('not_found', chatMessages.runNotFound);
      return follower(threadId, runId, run.deadline_at, options.afterSeq);
    },

    /**
     * The run's stream opened on its grant (run-grants.ts) rather than on who the caller is: nothing is read
     * before the run's output. Undefined when the grant is not this run's, forged or past its time — the
     * caller then opens it as followRun does.
     */
    followGranted(
      threadId: string,
      runId: string,
      grant: string,
      options: { afterSeq: number },
    ): ((signal: AbortSignal) => AsyncGenerator<RunStreamMessage>) | undefined {
      const granted = deps.runGrants?.verify(grant, threadId, runId);
      return granted && follower(threadId, runId, granted.deadlineAt, options.afterSeq);
    },

    async rename(call: ChatCall, chatter: Chatter, threadId: string, title: string): Promise<ThreadDto> {
      const { thread, assistant } = await reach(chatter, threadId, 'write');
      const result = await write(call, chatter, thread, {
        type: 'RenameThread',
        data: { requester: readerOf(chatter), title },
      });
      // The decision says the title now in force (an empty one records nothing and keeps the old).
      const renamed = result.events.find((event) => event.type === 'ThreadRenamed');
      return toThreadDto(
        { ...thread.view.row, title: renamed?.type === 'ThreadRenamed' ? renamed.data.title : thread.view.row.title },
        assistant,
      );
    },

    /** One conversation as Chat History lists it (the owner opening a visitor's one learns it is `is_public`). */
    async describe(chatter: Chatter, threadId: string): Promise<ThreadDto> {
      const { view, assistant } = await reach(chatter, threadId, 'read');
      return toThreadDto(view.row, assistant);
    },

    async remove(call: ChatCall, chatter: Chatter, threadId: string) {
      const { thread } = await reach(chatter, threadId, 'write');
      await write(call, chatter, thread, { type: 'DeleteThread', data: { requester: readerOf(chatter) } });
      return { detail: 'Thread deleted' };
    },

    async feedback(
      call: ChatCall,
      chatter: Chatter,
      body: {
        thread_id: string;
        message_id: string;
        rating: 'like' | 'dislike';
        comment: string | null;
        source: string;
      },
    ) {
      const { thread, assistant } = await reach(chatter, body.thread_id, 'write');
      const { rating, comment, source } = body;
      await write(call, chatter, thread, {
        type: 'GiveFeedback',
        data: {
          requester: writerOf(chatter, assistant),
          messageId: body.message_id,
          rating,
          comment,
          authorKey: authorKeyOf(chatter),
          source,
        },
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
