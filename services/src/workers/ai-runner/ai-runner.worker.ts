import { randomBytes } from 'node:crypto';
import { detectLanguage, parseRedirect, streamIds, type RecordedEvent, type RunRequested } from '@kesher/contracts';
import type { RetrievedPassage } from '../../knowledge/index.js';
import {
  type AnswerProvider,
  AnswerProviderError,
  HISTORY_TURNS,
  RUN_OUTPUT_RETENTION_MS,
  type RunOutcome,
  type RunOutputWriter,
  type SalesPage,
  untilAborted,
} from '../../chat/index.js';
import {
  runOf,
  threadDecider,
  type ThreadCommand,
  type ThreadEvent,
  type ThreadState,
} from '../../domain/thread/thread.decider.js';
import { handleCommand, type Loaded } from '../../platform/commands/command-handler.js';
import type { MessageBus } from '../../platform/bus/message-bus.port.js';
import { eventOf, foldStream } from '../../platform/commands/aggregate-stream.js';
import type { CommandContext, CommandHandler } from '../../platform/commands/command-handler.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { runRequestsFromBus, type RunRequests } from './run-requests.js';
import { citedSources } from './cited-sources.js';
import {
  type AssistantBehaviour,
  type BehaviourLoader,
  restrictToSources,
  type RunAutomation,
} from '../../automation/index.js';

/** What the runner needs to know about an assistant (port; the assistants read model at the root). */
export interface RunnerAssistant {
  name: string;
  instructions: string;
  salesMode: { enabled: boolean; salesPrompt: string };
  /** In Sales Mode: the crawled sales pages of the assistant's site (see chat/sales-pages.ts). */
  salesPages?: readonly SalesPage[];
}

export interface AiRunnerDeps {
  bus: MessageBus;
  eventStore: EventStore;
  handle: CommandHandler;
  provider: AnswerProvider;
  findAssistant: (assistantId: string) => Promise<RunnerAssistant | undefined>;
  retrieve: (input: { assistantId: string; question: string; k: number }) => Promise<RetrievedPassage[]>;
  /** Runs past their deadline that nobody settled (read model); the sweep expires them. */
  overdueRuns: (now: Date) => Promise<{ id: string; thread_id: string }[]>;
  /**
   * Where the answer goes as it is produced, and its end: any API process streams it from there. It is also
   * where the worker claims the run (`claim`), before any of its words or its outcome is recorded.
   */
  output: RunOutputWriter;
  /** Where requests come from (run-requests.ts): by default the bus, in the consumer group `groupId`. */
  requests?: RunRequests;
  groupId?: string;
  clock?: () => Date;
  /** How often to look for overdue runs; 0 turns the sweep off. */
  sweepIntervalMs?: number;
  passages?: number;
  /** Answers produced at once by this worker; the next message waits for a free slot (back-pressure). */
  maxConcurrentRuns?: number;
  onError?: (error: unknown) => void;
  /**
   * The owners' workflows, guidelines and actions (services/src/automation): loaded per run and handed to
   * the provider; the workflow that fired and the actions called are recorded on the thread. Absent: none apply.
   */
  automation?: { load: BehaviourLoader; run: RunAutomation };
}

export const newMessageId = () => `msg_${randomBytes(12).toString('hex')}`;

/**
 * The outcome a decision just recorded, for the end row of the run's output: the answer as the threads
 * read model will hold it (its id, text, sources, and the second it was recorded), or the failure.
 * Undefined when the decision recorded none (the run was settled already).
 */
/** Another worker recorded the run's start first: it answers, this one stops without a word. */
class RunTakenElsewhere extends Error {
  constructor() {
    super('the run was started by another worker');
    this.name = 'RunTakenElsewhere';
  }
}

export function outcomeOf(events: readonly ThreadEvent[], at: Date): RunOutcome | undefined {
  for (const event of events) {
    if (event.type === 'RunCompleted') {
      const answer = events.find((e) => e.type === 'MessagePosted' && e.data.messageId === event.data.messageId);
      if (answer?.type !== 'MessagePosted') return undefined;
      return {
        status: 'completed',
        message: {
          id: answer.data.messageId,
          text: answer.data.text,
          sources: event.data.sources,
          createdAt: Math.floor(at.getTime() / 1000),
        },
      };
    }
    if (event.type === 'RunFailed') return { status: 'failed', error: event.data.error };
    if (event.type === 'RunExpired') return { status: 'expired' };
  }
  return undefined;
}

const UNAVAILABLE = 'The assistant could not answer right now. Please try again.';

/**
 * Answers runs. It is handed `RunRequested` (from the thread topic, or the log: run-requests.ts), reads
 * the conversation from its stream, retrieves the assistant's knowledge, asks the provider and records
 * the answer and the completion together. Redelivery is harmless: a settled run is skipped before any work, and the thread
 * decider records no second outcome for it — so a run is answered at most once. A run still going at
 * its deadline is cancelled upstream and expired; the sweep expires runs whose worker died.
 *
 * Answers run concurrently (up to `maxConcurrentRuns`), so one slow model call does not hold every other
 * conversation behind it. The price: a message is acknowledged once its answer has started, so a worker
 * that dies mid-answer leaves the run to the sweep (expired, the user asks again) instead of to redelivery.
 */
export function createAiRunner(deps: AiRunnerDeps) {
  const clock = deps.clock ?? (() => new Date());
  const k = deps.passages ?? 5;
  let consumer: { stop(): Promise<void> } | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  const inFlight = new Set<AbortController>();
  /** Answers under way, by run id: a duplicate delivered meanwhile is dropped rather than answered twice at once. */
  const running = new Map<string, Promise<void>>();
  const maxConcurrent = deps.maxConcurrentRuns ?? 32;
  let stopping = false;

  const context = (trigger: RecordedEvent | undefined): CommandContext => ({
    actor: { kind: 'system', id: 'ai-runner' },
    correlationId: trigger?.metadata.correlationId ?? `sweep-${clock().toISOString()}`,
    ...(trigger ? { causationId: trigger.metadata.eventId } : {}),
    now: clock(),
  });

  async function answer(trigger: RecordedEvent, run: RunRequested) {
    const stream = streamIds.thread(run.threadId);
    // The assistant is asked for beside the thread, in the same turn: on the SQL store both streams come in
    // one statement. (Unused when the run is not this worker's to answer: nobody waits for it then.)
    const assistantLoad = deps.findAssistant(run.assistantId);
    assistantLoad.catch(() => undefined);
    // The thread is read and folded once per run: the conversation, the automation's notes and the state
    // the run's start and outcome are decided on. Those are appended with the revision they were decided
    // on; only a conflict (the visitor's next message, an automation note meanwhile) reads the stream again.
    const threadEvents = await deps.eventStore.readStream(stream);
    const { events, state, revision } = foldStream(threadDecider, threadEvents);
    // The thread as this run last decided on it: each decision appends after it, a conflict reads it afresh.
    let held: Loaded<ThreadState> | undefined = { state, revision };
    /** The run's outcome once recorded here: its output ends with it (see RunOutcome). */
    let outcome: RunOutcome | undefined;
    const decide = async (command: ThreadCommand) => {
      const ctx = context(trigger);
      const from = held;
      // A failure leaves the thread's state unknown: the next decision reads the stream.
      held = undefined;
      const handled = await handleCommand(deps.eventStore, threadDecider, stream, command, ctx, { from });
      held = { state: handled.state, revision: handled.revision };
      outcome ??= outcomeOf(handled.events, ctx.now);
      return handled.events;
    };
    const phase = runOf(state, run.runId)?.phase;
    // Started already: by another worker still answering it (a rebalance handed the request on), or by one
    // that died mid-answer (its request redelivered). Either way this worker does not answer it a second
    // time — the answer's words would reach the stream twice; a dead worker's run is the sweep's to expire.
    if (!phase || phase !== 'queued') return;
    // Delivered past its deadline (redelivered after a worker died mid-answer): whatever the model said
    // now would be thrown away, so it is not asked; the run is expired as the sweep would.
    if (clock().toISOString() >= run.deadlineAt) {
      await decide({ type: 'ExpireRun', data: { runId: run.runId, now: clock().toISOString() } });
      await deps.output.end(run.runId, outcome);
      return;
    }
    if (state.status === 'deleted') {
      await decide({ type: 'FailRun', data: { runId: run.runId, error: 'This conversation was deleted.' } });
      await deps.output.end(run.runId, outcome);
      return;
    }
    const turns = events.flatMap((e) => (e.type === 'MessagePosted' ? [e.data] : []));
    const question = [...turns].reverse().find((turn) => turn.role === 'user')?.text;
    // This worker's claim on the run, on its output (RunOutputWriter.claim): made with the answer's first
    // words, in their write, so claiming costs no round trip of its own and nothing waits for it. Two
    // workers handed the same request both answer up to their first words; the one that claims second
    // writes nothing and stops. A run settled without words (a failure) is claimed first all the same.
    // The start is recorded on the thread with the outcome (CompleteRun), not on its own: one append a
    // turn instead of two, and one less event for every reader of the log.
    const claimant = randomBytes(9).toString('base64url');
    let claim: Promise<boolean> | undefined;
    const claimWith = (words: string) => {
      // A write that fails once (a busy database) is tried again, as the same claimant: failing the run
      // is the last resort. One that fails twice is asked again by whatever needs the claim next.
      claim = deps.output.claim(run.runId, claimant, words).catch(() => deps.output.claim(run.runId, claimant, words));
      claim.catch(() => (claim = undefined));
      return claim;
    };
    const claimed = () => claim ?? claimWith('');
    /** Says the answer's next words: the first are the claim's; a run claimed elsewhere stops here. */
    const say = async (words: string) => {
      if (claim) {
        if (!(await claim)) throw new RunTakenElsewhere();
        deps.output.append(run.runId, words);
      } else if (!(await claimWith(words))) throw new RunTakenElsewhere();
    };
    // A workflow that fired and the owner's actions are recorded on the thread after the run's start, so
    // the run reads in_progress → requires_action → in_progress: those runs record their start on its own.
    let started: Promise<{ error: unknown } | undefined> | undefined;
    const recordedStart = async () => {
      started ??= claimed().then(
        async (mine) => {
          if (!mine) return { error: new RunTakenElsewhere() };
          const events = await decide({ type: 'StartRun', data: { runId: run.runId, provider: deps.provider.name } });
          return events.length > 0 ? undefined : { error: new RunTakenElsewhere() };
        },
        (error: unknown) => ({ error }),
      );
      const outcome = await started;
      if (outcome) throw outcome.error;
    };
    // The owner's automation for this run; a knowledge-base action of the workflow in force narrows retrieval to its sources.
    const ownerId = state.status === 'none' ? null : state.thread.assistantOwnerId;
    const automation = deps.automation;
    const behaviourLoad: Promise<AssistantBehaviour | undefined> =
      automation && question && ownerId
        ? (async () => {
            const input = { ownerId, assistantId: run.assistantId, question, threadEvents };
            // A read that fails once (a busy database) is tried again: answering without the owner's
            // workflows and guidelines is the last resort, and it is reported.
            try {
              return await automation.load(input).catch(() => automation.load(input));
            } catch (error) {
              deps.onError?.(error);
              return undefined;
            }
          })()
        : Promise.resolve(undefined);
    // Retrieval does not wait for the automation: the common case (no workflow narrowing the knowledge)
    // keeps what was retrieved at once; a workflow with knowledge sources retrieves again, wider, and
    // keeps only its sources' passages.
    const atOnce = question ? deps.retrieve({ assistantId: run.assistantId, question, k }) : undefined;
    atOnce?.catch(() => undefined);
    const retrieveFor = async (behaviour: AssistantBehaviour | undefined, asked: string) => {
      const sources = behaviour?.knowledgeSources;
      if (!sources) return atOnce!;
      const passages = await deps.retrieve({ assistantId: run.assistantId, question: asked, k: k * 8 });
      return restrictToSources(passages, sources).slice(0, k);
    };
    const [assistant, retrieved, behaviour] = await Promise.all([
      assistantLoad,
      question
        ? behaviourLoad
            .then((b) => retrieveFor(b, question))
            .then(
              (passages) => ({ passages }),
              (error: unknown) => ({ error }),
            )
        : undefined,
      behaviourLoad,
    ]);
    const fail = async (error: string) => {
      // A run another worker claimed is theirs to settle. (A claim the database refused to write is tried
      // once more by the failure: if that fails too, the run is still failed, as its worker cannot answer.)
      if ((await claimed().catch(() => undefined)) === false) return [];
      if ((await started)?.error instanceof RunTakenElsewhere) return [];
      return decide({ type: 'FailRun', data: { runId: run.runId, error } });
    };
    if (!question || !assistant) {
      await fail(
        question
          ? 'Assistant not found. Please check if the assistant still exists.'
          : 'There is no message to answer.',
      );
      await deps.output.end(run.runId, outcome);
      return;
    }

    const controller = new AbortController();
    // A timer may fire before the clock reaches the deadline (timers count from the event loop's cached
    // time, which a busy loop lets fall behind): one that fired early is set again for what is left, so
    // the run is aborted only once its deadline has passed by the clock the expiry is decided on. (Aborted
    // early, the run was left to the sweep: not expired here, as the decider refuses an expiry before
    // the deadline.)
    let deadline: NodeJS.Timeout | undefined;
    const atDeadline = () => {
      const left = Date.parse(run.deadlineAt) - clock().getTime();
      if (left > 0) deadline = setTimeout(atDeadline, left);
      else controller.abort(new Error('deadline'));
    };
    atDeadline();
    inFlight.add(controller);
    let text = '';
    /** When the first words arrived: analytics' time to first token (RunCompleted.firstTokenMs). */
    let firstTokenAt: Date | undefined;
    let usage = { promptTokens: 0, completionTokens: 0 };
    let cited: readonly RetrievedPassage[] | undefined;
    try {
      if (!retrieved || 'error' in retrieved) throw retrieved?.error;
      const { passages } = retrieved;
      const history = turns
        .slice(0, turns.lastIndexOf(turns.findLast((t) => t.role === 'user')!))
        .slice(-HISTORY_TURNS);
      const automationContext = {
        threadId: run.threadId,
        runId: run.runId,
        ownerId: ownerId ?? '',
        correlationId: trigger.metadata.correlationId,
        causationId: trigger.metadata.eventId,
      };
      if (automation && behaviour?.workflow) {
        await recordedStart();
        await automation.run.workflowFired(automationContext, behaviour);
      }
      const toolRunner =
        automation && behaviour
          ? automation.run.toolRunner(automationContext, behaviour, controller.signal)
          : undefined;
      const request = {
        question,
        language: detectLanguage(question),
        history,
        assistant,
        passages,
        signal: controller.signal,
        ...(behaviour ? { behaviour } : {}),
        // Actions are recorded after the run's start, so the run reads in_progress → requires_action → in_progress.
        ...(toolRunner
          ? {
              runTools: async (calls: Parameters<typeof toolRunner>[0]) => {
                await recordedStart();
                return toolRunner(calls);
              },
            }
          : {}),
      };
      for await (const delta of untilAborted(deps.provider.answer(request), controller.signal)) {
        if (delta.kind === 'usage')
          usage = { promptTokens: delta.promptTokens, completionTokens: delta.completionTokens };
        else if (delta.kind === 'cited') cited = delta.passages;
        else {
          firstTokenAt ??= clock();
          await say(delta.text);
          text += delta.text;
        }
      }
      if (controller.signal.aborted) {
        // Past the deadline (or stopping): the run expires; a stopping worker leaves it for redelivery.
        if (clock().toISOString() >= run.deadlineAt) {
          // A start being recorded goes first, so the thread reads started → expired.
          await started;
          await decide({ type: 'ExpireRun', data: { runId: run.runId, now: clock().toISOString() } });
        }
        return;
      }
      if (text.trim() === '')
        throw new AnswerProviderError('The assistant returned an empty answer. Please try again.');
      // A start recorded on its own (a workflow, actions) comes before the answer; so do the actions' outcomes.
      if (started) await recordedStart();
      await toolRunner?.settled();
      await decide({
        type: 'CompleteRun',
        data: {
          runId: run.runId,
          provider: deps.provider.name,
          messageId: newMessageId(),
          text,
          language: detectLanguage(question),
          responseMs: Math.max(0, clock().getTime() - trigger.createdAt.getTime()),
          firstTokenMs: firstTokenAt ? Math.max(0, firstTokenAt.getTime() - trigger.createdAt.getTime()) : null,
          ...usage,
          sources: citedSources(text, passages, cited),
          referredUrl: parseRedirect(text).redirectUrl,
        },
      });
    } catch (error) {
      if (error instanceof RunTakenElsewhere) {
        controller.abort(error);
        return;
      }
      if (!(error instanceof AnswerProviderError)) deps.onError?.(error);
      await fail(error instanceof AnswerProviderError ? error.message : UNAVAILABLE);
    } finally {
      clearTimeout(deadline);
      inFlight.delete(controller);
      await deps.output.end(run.runId, outcome);
    }
  }

  async function sweep() {
    const now = clock();
    for (const run of await deps.overdueRuns(now)) {
      const ctx = context(undefined);
      const expired = await deps.handle(
        threadDecider,
        streamIds.thread(run.thread_id),
        { type: 'ExpireRun', data: { runId: run.id, now: now.toISOString() } },
        ctx,
      );
      await deps.output.end(run.id, outcomeOf(expired.events, ctx.now));
    }
    // The output of runs long over: no client resumes an answer an hour old (the thread holds it).
    await deps.output.prune(new Date(now.getTime() - RUN_OUTPUT_RETENTION_MS));
  }

  return {
    sweep,
    async start() {
      stopping = false;
      const requests = deps.requests ?? runRequestsFromBus(deps.bus, deps.groupId ?? 'ai-runner');
      consumer = await requests.start(async (recorded) => {
        const event = eventOf(['RunRequested'], recorded);
        if (!event) return;
        const run = event.data;
        if (running.has(run.runId)) return;
        while (running.size >= maxConcurrent) await Promise.race(running.values());
        if (stopping) return;
        const work = answer(event, run)
          .catch((error) => deps.onError?.(error))
          .finally(() => running.delete(run.runId));
        running.set(run.runId, work);
      });
      const every = deps.sweepIntervalMs ?? 5000;
      if (every > 0) {
        sweepTimer = setInterval(() => void sweep().catch((error) => deps.onError?.(error)), every);
        sweepTimer.unref();
      }
    },
    /** Resolves once every answer under way has been recorded or abandoned (tests, and shutdowns). */
    idle: () => Promise.allSettled([...running.values()]).then(() => undefined),
    async stop() {
      stopping = true;
      clearInterval(sweepTimer);
      for (const controller of inFlight) controller.abort(new Error('stopping'));
      const current = consumer;
      consumer = undefined;
      await current?.stop();
      await Promise.allSettled([...running.values()]);
    },
  };
}
