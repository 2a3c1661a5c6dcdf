import { streamIds, type KesherEvent } from '@kesher/contracts';
import { assistantSlotsDecider } from '../domain/assistant-slots/assistant-slots.decider.js';
import { assistantDecider, fileSlotsOf } from '../domain/assistant/assistant.decider.js';
import { knowledgeFileDecider } from '../domain/knowledge-file/knowledge-file.decider.js';
import { aggregateStream, type Fold } from '../platform/commands/aggregate-stream.js';
import type { CommandContext, CommandHandler } from '../platform/commands/command-handler.js';
import { DomainError, type Decider } from '../platform/commands/decider.js';
import { StreamDeletedError, type EventStore } from '../platform/event-store/event-store.port.js';
import { closeIfUnstarted } from '../platform/commands/unstarted-stream.js';
import type { PlanOf } from './plan-book.js';
import type { LimitViolations } from '../analytics/index.js';

/**
 * The plan's counted limits — `max_assistants` per owner, `max_files` per assistant — enforced exactly,
 * whatever arrives at once (unlike the monthly message quota, which may be passed by the messages in
 * flight at its last free place; see message-quota.ts).
 *
 * Each limited thing takes a slot on one stream before it is created (assistants on the owner's
 * `assistantslots-…` stream, files on their assistant's stream) and gives it back when it is deleted.
 * The slot is decided on that stream's state and appended with its expected revision: concurrent takers
 * conflict, reload and decide again, so no more slots than the plan allows are ever held.
 *
 * Two steps (take the slot, then record the thing) can be cut in half by a crash, which would leave a
 * slot held by nothing and, at the limit, lock the owner out. So when the slots are full, each holder is
 * checked before the owner is refused: a holder that was deleted gives its slot back, and one whose
 * stream does not exist is abandoned — its stream is tombstoned, so a create still in flight for it fails
 * instead of completing over the limit — and gives its slot back too. No clock is involved: the log alone
 * decides which of the two happened first.
 */
export interface PlanAllowances {
  /** Takes an assistant slot for `assistantId`; throws DomainError('forbidden') with the plan's text at the limit. */
  reserveAssistant(context: CommandContext, ownerId: string, assistantId: string): Promise<{ limit: number }>;
  releaseAssistants(context: CommandContext, ownerId: string, assistantIds: readonly string[]): Promise<void>;
  /**
   * Takes a file slot of the assistant for `fileId`; throws DomainError('forbidden') at the limit, 'not_found' for a deleted
   * assistant. An upload counts against the plan's max_files; a crawled page (`pool: 'crawl'`) against max_crawl_pages.
   */
  reserveFile(
    context: CommandContext,
    ownerId: string,
    assistantId: string,
    fileId: string,
    pool?: 'crawl',
    replacing?: string,
  ): Promise<{ limit: number }>;
  releaseFiles(context: CommandContext, assistantId: string, fileIds: readonly string[]): Promise<void>;
}

/**
 * Whether a slot's holder is alive; a holder that never came to be is abandoned here (see above): its
 * stream is tombstoned, so a create still in flight for it fails instead of completing over the limit.
 */
async function holderAlive(eventStore: EventStore, streamId: string, alive: () => Promise<boolean>): Promise<boolean> {
  return (await closeIfUnstarted(eventStore, streamId)) === 'started' && (await alive());
}

/** Whether the knowledge file holding a slot (or storage, storage-holds.ts) is alive: recorded and not deleted, or still to be recorded. */
export const knowledgeFileAlive = (eventStore: EventStore, fileId: string) =>
  holderAlive(
    eventStore,
    streamIds.knowledgeFile(fileId),
    async () =>
      (await aggregateStream(eventStore, knowledgeFileDecider, streamIds.knowledgeFile(fileId))).state.status !==
      'deleted',
  );

/** Runs of a create whose slot a concurrent taker reclaimed before its stream began (see createHolding). */
const RECLAIMED_ATTEMPTS = 4;

/**
 * Runs a create that holds a plan slot (an assistant, an upload) until it lands. At the limit a taker
 * reclaims the slot of a holder whose stream has not begun, taking it for a crashed create, and tombstones
 * that stream; a live create so reclaimed fails on its first append with StreamDeletedError. The slots
 * were not full after all, so it runs again under a fresh id, and creates at once fill the limit exactly.
 * `create` picks the id and gives back what it took when it fails; after RECLAIMED_ATTEMPTS the refusal
 * is `reclaimedTooOften()` (the plan's limit text).
 */
export async function createHolding<T>(create: () => Promise<T>, reclaimedTooOften: () => Error): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (!(error instanceof StreamDeletedError)) throw error;
      if (attempt >= RECLAIMED_ATTEMPTS) throw reclaimedTooOften();
    }
  }
}

/** Twenty creates at once conflict up to nineteen times on the owner's stream: more tries than a handle's default. */
const SLOT_ATTEMPTS = 24;
/** Holders checked at once when the slots are full (each is one stream read). */
const CHECK_CONCURRENCY = 16;

export function createPlanAllowances(deps: {
  handle: CommandHandler;
  eventStore: EventStore;
  planOf: PlanOf;
  limitViolations?: LimitViolations;
}): PlanAllowances {
  const handle = <State, Command, Event extends KesherEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    context: CommandContext,
  ) => deps.handle(decider, streamId, command, context, { maxAttempts: SLOT_ATTEMPTS });

  const fold = async <State, Event extends KesherEvent>(
    decider: Fold<State, Event>,
    streamId: string,
  ): Promise<State> => (await aggregateStream(deps.eventStore, decider, streamId)).state;

  async function deadHolders(ids: readonly string[], isAlive: (id: string) => Promise<boolean>): Promise<string[]> {
    const dead: string[] = [];
    for (let i = 0; i < ids.length; i += CHECK_CONCURRENCY) {
      const batch = ids.slice(i, i + CHECK_CONCURRENCY);
      const alive = await Promise.all(batch.map(isAlive));
      batch.forEach((id, index) => !alive[index] && dead.push(id));
    }
    return dead;
  }

  const assistantAlive = (assistantId: string) =>
    holderAlive(
      deps.eventStore,
      streamIds.assistant(assistantId),
      async () => (await fold(assistantDecider, streamIds.assistant(assistantId))).status === 'active',
    );
  const fileAlive = (fileId: string) => knowledgeFileAlive(deps.eventStore, fileId);

  /**
   * Runs `take`; at the limit, frees the slots of holders that are gone and tries once more — even when it
   * freed none itself: a slot given back meanwhile by someone else (the erasure worker releasing a deleted
   * assistant's, a delete finishing) made room as well, and a refusal then would be false. A final refusal
   * is recorded (LimitViolated, for the owner's limits page) with the slots then held.
   */
  async function takeOrReclaim(
    take: () => Promise<unknown>,
    reclaim: () => Promise<number>,
    refused: () => Promise<void>,
  ) {
    try {
      try {
        await take();
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === 'forbidden')) throw error;
        await reclaim();
        await take();
      }
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'forbidden') await refused();
      throw error;
    }
  }

  const allowances: PlanAllowances = {
    async reserveAssistant(context, ownerId, assistantId) {
      const limit = (await deps.planOf(ownerId)).limits.max_assistants;
      const stream = streamIds.assistantSlots(ownerId);
      await takeOrReclaim(
        () =>
          handle(
            assistantSlotsDecider,
            stream,
            { type: 'TakeAssistantSlot', data: { ownerId, assistantId, limit } },
            context,
          ),
        async () => {
          const { taken } = await fold(assistantSlotsDecider, stream);
          const dead = await deadHolders(
            taken.filter((id) => id !== assistantId),
            assistantAlive,
          );
          if (dead.length > 0) await allowances.releaseAssistants(context, ownerId, dead);
          return dead.length;
        },
        async () =>
          deps.limitViolations?.record(context, {
            ownerId,
            kind: 'assistants',
            limit,
            used: (await fold(assistantSlotsDecider, stream)).taken.length,
            requested: null,
            assistantId: null,
            refused: 'owner',
          }),
      );
      return { limit };
    },

    async releaseAssistants(context, ownerId, assistantIds) {
      if (assistantIds.length === 0) return;
      await handle(
        assistantSlotsDecider,
        streamIds.assistantSlots(ownerId),
        { type: 'FreeAssistantSlots', data: { ownerId, assistantIds } },
        context,
      );
    },

    async reserveFile(context, ownerId, assistantId, fileId, pool, replacing) {
      const { limits } = await deps.planOf(ownerId);
      const limit = pool === 'crawl' ? limits.max_crawl_pages : limits.max_files;
      const stream = streamIds.assistant(assistantId);
      await takeOrReclaim(
        () =>
          handle(
            assistantDecider,
            stream,
            {
              type: 'TakeFileSlot',
              data: {
                assistantId,
                ownerId,
                fileId,
                limit,
                ...(pool ? { pool } : {}),
                ...(replacing ? { replacing } : {}),
              },
            },
            context,
          ),
        async () => {
          const state = await fold(assistantDecider, stream);
          if (state.status !== 'active') return 0;
          const dead = await deadHolders(
            fileSlotsOf(state).filter((id) => id !== fileId),
            fileAlive,
          );
          if (dead.length > 0) await allowances.releaseFiles(context, assistantId, dead);
          return dead.length;
        },
        async () => {
          const state = await fold(assistantDecider, stream);
          await deps.limitViolations?.record(context, {
            ownerId,
            kind: 'files',
            limit,
            used:
              state.status !== 'active'
                ? limit
                : pool === 'crawl'
                  ? state.crawlSlots.size
                  : state.fileSlots.size - state.crawlSlots.size,
            requested: null,
            assistantId,
            refused: 'owner',
          });
        },
      );
      return { limit };
    },

    async releaseFiles(context, assistantId, fileIds) {
      if (fileIds.length === 0) return;
      await handle(
        assistantDecider,
        streamIds.assistant(assistantId),
        { type: 'FreeFileSlots', data: { assistantId, fileIds } },
        context,
      );
    },
  };
  return allowances;
}
