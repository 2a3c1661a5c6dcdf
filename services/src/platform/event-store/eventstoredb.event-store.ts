import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  eventTypeFilter,
  excludeSystemEvents,
  isCommandError,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type CurrentRevision,
  type ExpectedRevision as ClientExpectedRevision,
  type Filter,
  type JSONType,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import {
  START_POSITION,
  comparePositions,
  positionToString,
  type AllPosition,
  type EventMetadata,
  type NewEvent,
  type RecordedEvent,
} from '@kesher/contracts';
import {
  StreamDeletedError,
  WrongExpectedVersionError,
  type AllBatch,
  type AllFilter,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type SubscribeOptions,
  type Subscription,
} from './event-store.port.js';

// ---------------------------------------------------------------------------------------------------
// Pure mapping helpers (exported for the unit test).
// ---------------------------------------------------------------------------------------------------

export function toClientExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

/** The revision the server reported in a conflict. Some paths report a missing stream as -1. */
export function toPortActualRevision(actual: CurrentRevision | undefined): bigint | 'no_stream' | 'unknown' {
  if (actual === undefined) return 'unknown';
  if (actual === NO_STREAM) return 'no_stream';
  return actual < 0n ? 'no_stream' : actual;
}

/** Our $all positions are EventStoreDB's own; only "from the start" needs the client's constant. */
export function toClientReadPosition(after: AllPosition | undefined): ReadPosition {
  return after ? { commit: after.commit, prepare: after.prepare } : START;
}

/**
 * Servers before 22.6 leave out the position of events read from a stream; a made-up position would
 * silently break waits and checkpoints, so refuse instead.
 */
export function fromClientPosition(position: Position | undefined, streamId: string): AllPosition {
  if (!position)
    throw new Error(
      `EventStoreDB returned an event of ${streamId} without its $all position (server 22.6 or newer is required)`,
    );
  return { commit: position.commit, prepare: position.prepare };
}

/** EventStoreDB evaluates filters with .NET regexes; escaping the JS metacharacters covers them. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An always-failing pattern, for an empty list (which must match nothing, as `= ANY('{}')` does). */
const MATCH_NOTHING = '(?!)';

/** Exact event-type names only: prefix filters would let `OrderPlaced` match `OrderPlacedV2`. */
export function eventTypeRegex(types: readonly string[]): string {
  return types.length ? `^(${types.map(escapeRegex).join('|')})$` : MATCH_NOTHING;
}

/**
 * The category is what precedes the first `-` (the whole name when there is none), as in the SQL
 * adapter. The regex is a superset of that rule (a category containing `-` also matches deeper
 * names); the exact rule is re-applied client-side by {@link allFilterPredicate}.
 */
export function categoryRegex(categories: readonly string[]): string {
  return categories.length ? `^(${categories.map(escapeRegex).join('|')})(-|$)` : MATCH_NOTHING;
}

export const categoryOf = (streamId: string) => {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
};

/** System events (`$`-types: tombstones, metadata, links, stats) are never handed to Kesher. */
export const isSystemEventType = (type: string) => type.startsWith('$');

/**
 * The port's filter as a predicate: types OR categories (see filterClause in sql-event-store.ts),
 * never system events. This is the authoritative check; server-side filters only narrow the traffic.
 */
export function allFilterPredicate(
  filter: AllFilter | undefined,
): (event: { type: string; streamId: string }) => boolean {
  const types = filter?.eventTypes ? new Set(filter.eventTypes) : undefined;
  const categories = filter?.categories ? new Set(filter.categories) : undefined;
  return ({ type, streamId }) => {
    if (isSystemEventType(type)) return false;
    if (!types && !categories) return true;
    return (types?.has(type) ?? false) || (categories?.has(categoryOf(streamId)) ?? false);
  };
}

/**
 * The one server-side filter a subscription can carry. A server filter looks at either the event type
 * or the stream name, never both, so the port's OR of the two falls back to "exclude system events"
 * and the predicate does the rest.
 */
export function serverFilterSpec(
  filter: AllFilter | undefined,
): { on: 'eventType' | 'streamName'; regex: string } | { on: 'excludeSystemEvents' } {
  const types = filter?.eventTypes;
  const categories = filter?.categories;
  if (types && !categories) return { on: 'eventType', regex: eventTypeRegex(types) };
  if (categories && !types) return { on: 'streamName', regex: categoryRegex(categories) };
  return { on: 'excludeSystemEvents' };
}

// ---------------------------------------------------------------------------------------------------
// The adapter.
// ---------------------------------------------------------------------------------------------------

/** The fields this adapter reads, shared by events read from a stream and from $all. */
interface ClientRecordedEvent {
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  created: Date;
  position?: Position;
}

function toRecorded(event: ClientRecordedEvent): RecordedEvent {
  return {
    streamId: event.streamId,
    streamPosition: event.revision,
    position: fromClientPosition(event.position, event.streamId),
    type: event.type,
    data: event.data,
    // Written as the whole EventMetadata JSON by appendToStream; the client parses it back.
    metadata: event.metadata as EventMetadata,
    createdAt: event.created,
  };
}

function toEventData(event: NewEvent) {
  return jsonEvent({
    id: event.metadata.eventId,
    type: event.type,
    data: event.data as JSONType,
    metadata: event.metadata,
  });
}

/** The port's errors for the client's; anything else passes through unchanged. */
function translateError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (!(error instanceof Error) || !isCommandError(error)) return error;
  if (error.type === ErrorType.STREAM_DELETED) return new StreamDeletedError(streamId);
  if (error.type === ErrorType.WRONG_EXPECTED_VERSION)
    return new WrongExpectedVersionError(streamId, expected, toPortActualRevision(error.actualVersion));
  return error;
}

const isClientError = (error: unknown, type: ErrorType) =>
  error instanceof Error && isCommandError(error) && error.type === type;

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

const isAfter = (position: AllPosition, reference: AllPosition | undefined) =>
  !reference || comparePositions(position, reference) > 0;

const DEFAULT_MAX_COUNT = 1000;
/** Raw $all page for readAll; system and filtered-out events fill pages too, so never tiny. */
const MIN_SCAN_PAGE = 256;
/** How many events headPosition looks back at a time to get past trailing system events. */
const HEAD_LOOKBACK = 32;

/** A checkpoint pushed into the subscription's own stream, so it is seen in order with the events. */
interface CheckpointMarker {
  checkpoint: AllPosition;
}
const isCheckpointMarker = (item: AllStreamResolvedEvent | CheckpointMarker): item is CheckpointMarker =>
  'checkpoint' in item;

/**
 * The event store on EventStoreDB (gRPC client 6.x). Positions are EventStoreDB's own $all positions
 * and revisions are its stream revisions, so nothing is translated but the filters (see
 * docs/eventstoredb-adapter.md).
 */
export function createEventStoreDbEventStore(options: { connectionString: string }): EventStore {
  const client = EventStoreDBClient.connectionString(options.connectionString);
  const subscriptions = new Set<Subscription>();

  async function readAll(readOptions: ReadAllOptions = {}): Promise<AllBatch> {
    const { after, filter } = readOptions;
    const limit = readOptions.maxCount ?? DEFAULT_MAX_COUNT;
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`maxCount must be a positive integer, got ${limit}`);
    const wanted = allFilterPredicate(filter);
    // Client 6.x cannot filter readAll on the server, so scan raw pages and filter here. That also
    // tells us exactly how far we looked, which is what `next` must report.
    const pageSize = Math.max(limit, MIN_SCAN_PAGE);
    const events: RecordedEvent[] = [];
    let scanned: AllPosition | undefined;
    for (;;) {
      const from = scanned ?? after;
      const page = await collect(
        client.readAll({ fromPosition: toClientReadPosition(from), maxCount: pageSize, direction: FORWARDS }),
      );
      const before = scanned;
      for (const { event } of page) {
        if (!event) continue;
        const position = fromClientPosition(event.position, event.streamId);
        // fromPosition is inclusive: the event at `after` (or at the previous page's end) comes back.
        if (!isAfter(position, scanned ?? after)) continue;
        scanned = position;
        if (!wanted(event)) continue;
        events.push(toRecorded(event));
        if (events.length === limit) return { events, next: position, atEnd: false };
      }
      if (page.length < pageSize) return { events, next: scanned ?? after ?? START_POSITION, atEnd: true };
      if (scanned === before)
        throw new Error(`readAll made no progress from ${positionToString(from ?? START_POSITION)}`);
    }
  }

  function subscribeToAll(subscribeOptions: SubscribeOptions): Subscription {
    const { after, onBatch, onError } = subscribeOptions;
    const batchSize = subscribeOptions.maxCount ?? DEFAULT_MAX_COUNT;
    const wanted = allFilterPredicate(subscribeOptions.filter);
    const spec = serverFilterSpec(subscribeOptions.filter);

    // The client awaits checkpointReached inside its stream transform, after every earlier event has
    // been pushed and before any later one is. Pushing a marker from there keeps the checkpoint in
    // order with the events, so `next` never claims events still waiting in the buffer.
    const checkpointReached = (subscription: AllStreamSubscription, position: Position) => {
      subscription.push({
        checkpoint: { commit: position.commit, prepare: position.prepare },
      } satisfies CheckpointMarker);
    };
    const filter: Filter =
      spec.on === 'eventType'
        ? eventTypeFilter({ regex: spec.regex, checkpointReached })
        : spec.on === 'streamName'
          ? streamNameFilter({ regex: spec.regex, checkpointReached })
          : excludeSystemEvents({ checkpointReached });

    const stream = client.subscribeToAll({ fromPosition: toClientReadPosition(after), filter });
    let running = true;
    let caughtUp = false;
    stream.on('caughtUp', () => (caughtUp = true));
    stream.on('fellBehind', () => (caughtUp = false));

    const stopped = (async () => {
      let delivered = after;
      let next = after;
      let pending: RecordedEvent[] = [];
      try {
        // for-await pulls one item at a time, so a slow handler back-pressures the gRPC stream.
        for await (const item of stream as AsyncIterable<AllStreamResolvedEvent | CheckpointMarker>) {
          if (!running) break;
          if (isCheckpointMarker(item)) {
            if (isAfter(item.checkpoint, next)) next = item.checkpoint;
          } else if (item.event) {
            const position = fromClientPosition(item.event.position, item.event.streamId);
            // The server starts after `fromPosition`; the check only guards against an inclusive start.
            if (!isAfter(position, after)) continue;
            next = position;
            if (wanted(item.event)) pending.push(toRecorded(item.event));
          }
          const drained = stream.readableLength === 0;
          const moved = next !== undefined && isAfter(next, delivered);
          if (pending.length >= batchSize || (drained && (pending.length > 0 || moved))) {
            const batch: AllBatch = { events: pending, next: next ?? START_POSITION, atEnd: caughtUp && drained };
            pending = [];
            await onBatch(batch);
            delivered = next;
          }
        }
        if (running) throw new Error('EventStoreDB ended the $all subscription');
      } catch (error) {
        // Stopping destroys the stream, which surfaces here as a premature close: not a failure.
        if (running) onError?.(error);
      } finally {
        running = false;
        await stream.unsubscribe().catch(() => undefined);
      }
    })();

    const subscription: Subscription = {
      stopped,
      async stop() {
        if (running) {
          running = false;
          await stream.unsubscribe().catch(() => undefined);
          stream.destroy();
        }
        await stopped;
      },
    };
    subscriptions.add(subscription);
    void stopped.finally(() => subscriptions.delete(subscription));
    return subscription;
  }

  return {
    name: 'eventstoredb',

    async appendToStream(streamId, events, { expectedRevision }) {
      if (events.length === 0) throw new Error('nothing to append');
      const result = await client
        .appendToStream(streamId, events.map(toEventData), {
          expectedRevision: toClientExpectedRevision(expectedRevision),
        })
        .catch((error: unknown) => {
          throw translateError(error, streamId, expectedRevision);
        });
      // Only reachable when the connection string sets throwOnAppendFailure=false.
      if (!result.success)
        throw new WrongExpectedVersionError(
          streamId,
          expectedRevision,
          toPortActualRevision(result.nextExpectedRevision),
        );
      // The server reports the position of the write's last event; older servers may leave it out.
      const position = result.position ?? (await lastEventPosition(streamId));
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    },

    async readStream(streamId, readOptions = {}) {
      try {
        const resolved = await collect(
          client.readStream(streamId, {
            fromRevision: readOptions.fromRevision ?? START,
            ...(readOptions.maxCount !== undefined && { maxCount: readOptions.maxCount }),
            direction: FORWARDS,
          }),
        );
        return resolved.flatMap(({ event }) => (event ? [toRecorded(event)] : []));
      } catch (error) {
        if (isClientError(error, ErrorType.STREAM_NOT_FOUND)) return [];
        throw translateError(error, streamId, 'any');
      }
    },

    readAll,
    subscribeToAll,

    async deleteStream(streamId, { expectedRevision }) {
      try {
        // The typings leave STREAM_EXISTS out of tombstone's expected revision, but the client sends it
        // (TombstoneReq has stream_exists) and the server honours it, as for appends.
        await client.tombstoneStream(streamId, {
          expectedRevision: toClientExpectedRevision(expectedRevision) as ClientExpectedRevision,
        });
      } catch (error) {
        throw translateError(error, streamId, expectedRevision);
      }
    },

    async headPosition(): Promise<AllPosition> {
      // The newest events are often system events (stats, tombstones); look back until a real one.
      let from: ReadPosition = END;
      let oldest: AllPosition | undefined;
      for (;;) {
        const page = await collect(
          client.readAll({ fromPosition: from, maxCount: HEAD_LOOKBACK, direction: BACKWARDS }),
        );
        const before = oldest;
        for (const { event } of page) {
          if (!event) continue;
          const position = fromClientPosition(event.position, event.streamId);
          if (oldest && comparePositions(position, oldest) >= 0) continue;
          oldest = position;
          if (!isSystemEventType(event.type)) return position;
        }
        if (page.length < HEAD_LOOKBACK || !oldest || oldest === before) return START_POSITION;
        from = oldest;
      }
    },

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      await client.dispose();
    },
  };

  /** Fallback for servers that do not return the append position: read the stream's last event. */
  async function lastEventPosition(streamId: string): Promise<AllPosition> {
    const [last] = await collect(client.readStream(streamId, { fromRevision: END, maxCount: 1, direction: BACKWARDS }));
    if (!last?.event) throw new Error(`EventStoreDB did not report where the append to ${streamId} landed`);
    return fromClientPosition(last.event.position, streamId);
  }
}
