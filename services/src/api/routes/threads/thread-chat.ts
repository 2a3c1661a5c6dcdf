import { createHash, randomBytes } from 'node:crypto';
import {
  chatMessages,
  detectLanguage,
  ErrorBodySchema,
  messages,
  RunIdSchema,
  streamIds,
  ThreadIdSchema,
  type Actor,
  type AllPosition,
  type Channel,
  type MessageDto,
  type RunDto,
  type ThreadDto,
} from '@kesher/contracts';
import { assistantQueries, type AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import { threadQueries, type MessageRow, type RunRow, type ThreadReader, type ThreadRow } from '@kesher/projections/threads/threads.queries';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RunStreamHub } from '../../../chat/run-stream-hub.js';
import { threadDecider, type Requester, type ThreadCommand } from '../../../domain/thread/thread.decider.js';
import type { CommandHandler } from '../../../platform/commands/command-handler.js';
import type { AwaitReadModels, ReadModelProgress } from '../../../platform/projections/read-model-progress.js';
import type { MessageQuota } from '../../../plans/message-quota.js';
import type { PublicChatLimits } from './public-chat-limits.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { commandContext, createCommandRunner } from '../../command-runner.js';
import type { LimitKind } from '@kesher/contracts';
import type { LimitViolations } from '../../../analytics/limit-violations.js';
import { DomainError } from '../../../platform/commands/decider.js';
import { createWriteMarks } from '../../../platform/projections/write-marks.js';

export interface ThreadRoutesDeps {
  handle: CommandHandler;
  readDb: Sql;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
  /** A run nobody finished within this time is expired. */
  runDeadlineSeconds: number;
  /** Live answers: in-process when the ai-runner shares this process, LISTEN/NOTIFY across processes. */
  runStreams?: RunStreamHub;
  /** Wakes the SSE route when the threads read model moves, instead of re-reading it on a timer. */
  readModels?: ReadModelProgress;
  /** The plan's monthly message limit of the assistant's owner; absent, messages are not counted against one. */
  messageQuota?: MessageQuota;
  /** Rate limits on visitors' messages (per session, address and share link); absent, none apply. */
  publicChatLimits?: PublicChatLimits;
  /** Where refusals by the plan's monthly limit and the assistant's chat_limit are recorded (analytics). */
  limitViolations?: LimitViolations;
}

/** While the worker has not said it is done, re-read the run this often anyway (a lost end, a dead worker). */
const STREAM_SAFETY_POLL_MS = 1000;
/** Without progress notifications, how often to re-read the run. */
const READ_MODEL_POLL_MS = 50;

/** Why a message can be refused after it passed its schema; the client shows `detail` as it is. */
export const postRefusedSchema = ErrorBodySchema.describe(
  "Refused: the conversation reached the assistant's chat_limit, or the assistant's owner reached the plan's monthly message limit " +
    '("This assistant has reached its plan\'s monthly message limit ({n} messages). Please try again next month or upgrade the plan."). ' +
    'Nothing is recorded; the monthly limit opens again on the 1st (UTC).',
);

/** Who is chatting: a signed-in owner, or a visitor known only by the session token they hold. */
export type Chatter = { kind: 'owner'; ownerId: string } | { kind: 'visitor'; sessionHash: string };

/** The token itself is the visitor's secret; only its hash is stored and compared. */
export const hashSession = (token: string) => createHash('sha256').update(token).digest('hex');
export const newSessionToken = () => randomBytes(32).toString('hex');
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

const readerOf = (chatter: Chatter): ThreadReader & Requester =>
  chatter.kind === 'owner' ? { ownerId: chatter.ownerId } : { visitorSessionHash: chatter.sessionHash };
/** The share link a visitor's thread is bound to (its token's sha-256); null when the assistant has none. */
const shareTokenHashOf = (assistant: AssistantRow) => (assistant.share_token ? hashSession(assistant.share_token) : null);
/** Who writes: a visitor also carries the assistant's current link, which the decider compares with the thread's. */
const writerOf = (chatter: Chatter, assistant: AssistantRow): Requester =>
  chatter.kind === 'owner' ? { ownerId: chatter.ownerId } : { visitorSessionHash: chatter.sessionHash, shareTokenHash: shareTokenHashOf(assistant) };
const actorOf = (chatter: Chatter): Actor => (chatter.kind === 'owner' ? { kind: 'account', id: chatter.ownerId } : { kind: 'visitor', id: chatter.sessionHash });
const authorKeyOf = (chatter: Chatter) => (chatter.kind === 'owner' ? `account:${chatter.ownerId}` : `visitor:${chatter.sessionHash}`);

/**
 * Path ids are checked here rather than by the route schema: the spec's client reads a 400 as THREAD_INVALID
 * (and a 404 as THREAD_NOT_FOUND), and those are the texts the server sends.
 */
export function threadIdOf(raw: string): string {
  const parsed = ThreadIdSchema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, chatMessages.threadInvalid);
  return parsed.data;
}
export function runIdOf(raw: string): string {
  const parsed = RunIdSchema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, chatMessages.invalidRunId);
  return parsed.data;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export const toMessageDto = (row: MessageRow): MessageDto => ({
  id: row.id,
  object: 'thread.message',
  thread_id: row.thread_id,
  role: row.role,
  content: [{ type: 'text', text: { value: row.text, annotations: [] } }],
  created_at: row.created_at,
  run_id: row.run_id,
  sources: row.sources.map((s) => ({ file_id: s.fileId, filename: s.filename, source_url: s.sourceUrl, section: s.section })),
});

export const toThreadDto = (row: ThreadRow, assistant: Pick<AssistantRow, 'numeric_id'>): ThreadDto => ({
  id: row.id,
  thread_id: row.id,
  openai_thread_id: row.id,
  title: row.title,
  created_at: row.created_at,
  is_public: row.is_public,
  assistant_id: assistant.numeric_id,
  channel: row.channel,
});

/**
 * The chat's use cases, shared by the signed-in routes and the public ones: they differ only in who is
 * chatting (and how that is proven), never in what chatting does.
 */
export function createThreadChat(deps: ThreadRoutesDeps) {
  const threads = threadQueries(deps.readDb);
  const assistants = assistantQueries(deps.readDb);
  const run = createCommandRunner(deps);
  // The two writes of every chat turn (the message, the run) answer without waiting for the projector;
  // the thread's next read waits instead (see write-marks.ts).
  const marks = createWriteMarks({ awaitReadModels: deps.awaitReadModels });
  async function writeFast(request: FastifyRequest, threadId: string, command: ThreadCommand, chatter: Chatter) {
    const result = await run(request, threadDecider, streamIds.thread(threadId), command, actorOf(chatter), { awaitReadModels: false });
    if (result.appended) marks.note(threadId, result.appended.position, result.events.map((event) => event.type));
    return result;
  }

  /** A limit refused a message: recorded for the owner's limits page (LimitViolated) before the refusal is sent. */
  const refused = (request: FastifyRequest, chatter: Chatter, assistant: AssistantRow, kind: LimitKind, limit: number, used: number) =>
    deps.limitViolations?.record(
      { ...commandContext(request, deps.clock), actor: actorOf(chatter) },
      { ownerId: assistant.owner_id, kind, limit, used, requested: null, assistantId: assistant.id, refused: chatter.kind === 'owner' ? 'owner' : 'visitor' },
    );

  async function threadOf(chatter: Chatter, threadId: string) {
    const thread = await threads.thread(readerOf(chatter), threadId);
    if (!thread) throw new ApiError(404, chatMessages.threadNotFound);
    const assistant = await assistants.findById(thread.assistant_id);
    if (!assistant) throw new ApiError(404, messages.assistantNotFound);
    // A revoked link ends visitors' conversations too: public chat lives only as long as its share token.
    if (chatter.kind === 'visitor' && !assistant.share_token) throw new ApiError(403, chatMessages.invalidShareLink);
    return { thread, assistant };
  }

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

  function runDto(row: RunRow, assistant: AssistantRow): RunDto {
    // Expired on read: the sweep records it shortly, but no client ever sees a run past its deadline as running.
    const overdue = (row.status === 'queued' || row.status === 'in_progress') && row.deadline_at.getTime() <= deps.clock().getTime();
    const status = overdue ? 'expired' : row.status;
    const lastError =
      status === 'failed'
        ? { code: 'server_error', message: row.error ?? 'Unknown error occurred' }
        : status === 'expired'
          ? { code: 'expired', message: 'Assistant response timed out. Please try again.' }
          : null;
    return {
      id: row.id,
      run_id: row.id,
      object: 'thread.run',
      thread_id: row.thread_id,
      assistant_id: assistant.external_id,
      status,
      last_error: lastError,
      created_at: row.created_at,
      expires_at: seconds(row.deadline_at),
      completed_at: row.settled_at,
      message_id: row.message_id,
    };
  }

  return {
    async start(request: FastifyRequest, chatter: Chatter, assistant: AssistantRow, channel: Channel) {
      const threadId = newId('thread');
      await run(
        request,
        threadDecider,
        streamIds.thread(threadId),
        {
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
        },
        actorOf(chatter),
      );
      return { thread_id: threadId, id: threadId, created_at: seconds(deps.clock()) };
    },

    async post(request: FastifyRequest, chatter: Chatter, rawThreadId: string, content: string): Promise<MessageDto> {
      const threadId = threadIdOf(rawThreadId);
      const { assistant } = await threadOf(chatter, threadId);
      if (chatter.kind === 'visitor') {
        const wait = deps.publicChatLimits?.take({ sessionHash: chatter.sessionHash, ip: request.ip, assistantId: assistant.id }) ?? 0;
        if (wait > 0) throw new ApiError(429, messages.tooManyRequests, { 'retry-after': String(Math.ceil(wait / 1000)) });
      }
      // Counted against the assistant owner's plan, whoever writes: the owner, or a visitor by share link.
      const quota = await deps.messageQuota?.check(assistant.owner_id);
      if (quota && !quota.allowed) {
        await refused(request, chatter, assistant, 'monthly_messages', quota.limit, quota.used);
        throw new ApiError(403, chatMessages.monthlyLimitReached(quota.limit));
      }
      const messageId = newId('msg');
      const now = deps.clock();
      const { appended } = await writeFast(
        request,
        threadId,
        { type: 'PostUserMessage', data: { requester: writerOf(chatter, assistant), messageId, text: content, language: detectLanguage(content), chatLimit: assistant.chat_limit } },
        chatter,
      ).catch(async (error: unknown) => {
        if (error instanceof DomainError && error.message === chatMessages.chatLimitReached(assistant.chat_limit)) {
          await refused(request, chatter, assistant, 'chat_limit', assistant.chat_limit, assistant.chat_limit);
        }
        throw error;
      });
      if (appended) deps.messageQuota?.accepted(assistant.owner_id, appended.position);
      // The decider accepted exactly this message: it is what the read model will hold.
      return toMessageDto({ id: messageId, thread_id: threadId, role: 'user', text: content, run_id: null, sources: [], created_at: seconds(now) });
    },

    async messages(chatter: Chatter, rawThreadId: string) {
      const threadId = threadIdOf(rawThreadId);
      await threadOf(chatter, threadId);
      await marks.settle(threadId);
      return { object: 'list' as const, data: (await threads.messages(readerOf(chatter), threadId)).map(toMessageDto) };
    },

    async requestRun(request: FastifyRequest, chatter: Chatter, rawThreadId: string, externalAssistantId: string): Promise<RunDto> {
      const threadId = threadIdOf(rawThreadId);
      const { assistant } = await threadOf(chatter, threadId);
      if (assistant.external_id !== externalAssistantId) throw new ApiError(404, messages.assistantNotFound);
      const runId = newId('run');
      const now = deps.clock();
      const deadlineAt = new Date(now.getTime() + deps.runDeadlineSeconds * 1000);
      await writeFast(
        request,
        threadId,
        { type: 'RequestRun', data: { requester: writerOf(chatter, assistant), runId, assistantId: assistant.id, deadlineAt: deadlineAt.toISOString(), now: now.toISOString() } },
        chatter,
      );
      // A new run is queued; the worker may already be on it, which the next read (or the stream) shows.
      const requested: RunRow = { id: runId, thread_id: threadId, assistant_id: assistant.id, status: 'queued', error: null, message_id: null, deadline_at: deadlineAt, created_at: seconds(now), settled_at: null };
      return runDto(requested, assistant);
    },

    async run(chatter: Chatter, rawThreadId: string, rawRunId: string): Promise<RunDto> {
      const threadId = threadIdOf(rawThreadId);
      const runId = runIdOf(rawRunId);
      const { assistant } = await threadOf(chatter, threadId);
      const row = await runAfterOwnWrites(chatter, threadId, runId);
      if (!row) throw new ApiError(404, chatMessages.runNotFound);
      return runDto(row, assistant);
    },

    /**
     * Server-sent events for one run: `delta` events (id = sequence number, so a client reconnecting with
     * Last-Event-ID resumes after what it has) while the answer is produced, then exactly one of
     * `completed` (with the stored message's full text: the final word), `failed` or `expired`.
     */
    async stream(request: FastifyRequest, reply: FastifyReply, chatter: Chatter, rawThreadId: string, rawRunId: string) {
      const threadId = threadIdOf(rawThreadId);
      const runId = runIdOf(rawRunId);
      const { assistant } = await threadOf(chatter, threadId);
      const reader = readerOf(chatter);
      let mark = deps.readModels?.position('threads');
      let row = await runAfterOwnWrites(chatter, threadId, runId);
      if (!row) throw new ApiError(404, chatMessages.runNotFound);

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      let open = true;
      const send = (event: string, data: unknown, id?: number) => {
        if (open) raw.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      let wake: (() => void) | undefined;
      const rouse = () => wake?.();
      const nap = (ms: number) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(done, ms);
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
        });
      // The worker's end of the stream says the outcome is recorded; the read model then shows it shortly.
      let workerDone = !deps.runStreams;
      const lastEventId = Number(request.headers['last-event-id']);
      const unfollow = deps.runStreams?.follow(runId, Number.isInteger(lastEventId) && lastEventId > 0 ? lastEventId : 0, (event) => {
        if (event.kind === 'delta') send('delta', { text: event.text }, event.seq);
        else {
          workerDone = true;
          rouse();
        }
      });
      request.raw.on('close', () => {
        open = false;
        rouse();
      });
      // The read model decides the end: it holds the stored answer whichever process produced it.
      while (open) {
        row ??= await threads.run(reader, threadId, runId);
        const dto = row && runDto(row, assistant);
        if (!dto) break;
        if (dto.status === 'completed') {
          const message = dto.message_id ? await threads.message(reader, threadId, dto.message_id) : undefined;
          send('completed', { run_id: runId, message: message ? toMessageDto(message) : null });
          break;
        }
        if (dto.status === 'failed' || dto.status === 'expired') {
          send(dto.status, { run_id: runId, message: dto.last_error?.message ?? 'Unknown error occurred' });
          break;
        }
        if (!open) break;
        // A run past its deadline reads as expired, so never sleep beyond it.
        const cap = Math.min(STREAM_SAFETY_POLL_MS, Math.max(0, row!.deadline_at.getTime() - deps.clock().getTime()) + 10);
        if (!workerDone) {
          // Until the worker ends its stream; the slow re-read covers a lost end and a worker that died.
          await nap(cap);
        } else if (deps.readModels) {
          const napping = nap(cap);
          await Promise.race([deps.readModels.waitForMove('threads', mark, cap), napping]);
          rouse();
        } else {
          await nap(Math.min(READ_MODEL_POLL_MS, cap));
        }
        // Read again, noting first how far the read model was, so a change landing meanwhile is not missed.
        mark = deps.readModels?.position('threads');
        row = undefined;
      }
      unfollow?.();
      open = false;
      raw.end();
    },

    async rename(request: FastifyRequest, chatter: Chatter, rawThreadId: string, title: string) {
      const threadId = threadIdOf(rawThreadId);
      const { assistant } = await threadOf(chatter, threadId);
      await run(request, threadDecider, streamIds.thread(threadId), { type: 'RenameThread', data: { requester: readerOf(chatter), title } }, actorOf(chatter));
      const renamed = await threads.thread(readerOf(chatter), threadId);
      if (!renamed) throw new ApiError(404, chatMessages.threadNotFound);
      return toThreadDto(renamed, assistant);
    },

    /** One conversation as Chat History lists it (the owner opening a visitor's one learns it is `is_public`). */
    async describe(chatter: Chatter, rawThreadId: string): Promise<ThreadDto> {
      const { thread, assistant } = await threadOf(chatter, threadIdOf(rawThreadId));
      return toThreadDto(thread, assistant);
    },

    async remove(request: FastifyRequest, chatter: Chatter, rawThreadId: string) {
      const threadId = threadIdOf(rawThreadId);
      await threadOf(chatter, threadId);
      await run(request, threadDecider, streamIds.thread(threadId), { type: 'DeleteThread', data: { requester: readerOf(chatter) } }, actorOf(chatter));
      return { detail: 'Thread deleted' };
    },

    async feedback(
      request: FastifyRequest,
      chatter: Chatter,
      body: { thread_id: string; message_id: string; rating: 'like' | 'dislike'; comment: string | null; source: string },
    ) {
      const { assistant } = await threadOf(chatter, body.thread_id);
      const { rating, comment, source } = body;
      await run(
        request,
        threadDecider,
        streamIds.thread(body.thread_id),
        { type: 'GiveFeedback', data: { requester: writerOf(chatter, assistant), messageId: body.message_id, rating, comment, authorKey: authorKeyOf(chatter), source } },
        actorOf(chatter),
      );
      return { detail: 'Thank you for your feedback!', rating };
    },

    /** Chat History: the owner's conversations with one assistant, including visitors' public ones. */
    async listForAssistant(ownerId: string, assistant: AssistantRow) {
      return (await threads.threadsOfAssistant(ownerId, assistant.id)).map((row) => toThreadDto(row, assistant));
    },
  };
}
