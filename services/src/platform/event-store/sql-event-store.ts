import { randomUUID } from 'node:crypto';
import {
  comparePositions,
  START_POSITION,
  type AllPosition,
  type NewEvent,
  type RecordedEvent,
} from '@kesher/contracts';
import { listenStatement, type Sql } from '../sql/sql.port.js';
import {
  StreamDeletedError,
  WrongExpectedVersionError,
  type AllBatch,
  type AllFilter,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
} from './event-store.port.js';
import { EVENTS_CHANNEL } from './sql-event-store.schema.js';
import { IDLE_POLL_LISTENING_MS, pollingSubscription, type LocalWaiters } from './polling-subscription.js';
import { createAppendBatcher } from './append-batcher.js';
import { coalescedReadAll } from './coalesced-read.js';
import { gatheredEachTurn } from '../process/this-turn.js';
import { HORIZON_SQL } from './read-horizon.js';

/** How often a store that has heard of no other listener counts them again (see `othersListen`). */
const PEER_COUNT_MS = 1000;

interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_position: string;
  event_type: string;
  data: unknown;
  metadata: RecordedEvent['metadata'];
  created_at: Date | string;
}

// Columns are cast to text for exact bigint parsing. Beware: ORDER BY on such an alias would sort the
// text, so every ORDER BY below names the table column (events.x) explicitly.
const EVENT_COLUMNS = `global_position::text AS global_position, transaction_id::text AS transaction_id, stream_id,
  stream_position::text AS stream_position, event_type, data, metadata, created_at`;

/** Events a stream gives at most in a statement shared with other stream reads (see askStream). */
const SHARED_STREAM_PAGE = 500;

/** One `readStream` waiting for its turn's statement. */
interface StreamRead {
  streamId: string;
  fromRevision: string;
  maxCount: number;
  resolve: (events: RecordedEvent[]) => void;
  reject: (error: unknown) => void;
}
type StreamRow = (EventRow | { [K in keyof EventRow]: null }) & { idx: number; deleted: boolean | null };

function toRecorded(row: EventRow): RecordedEvent {
  return {
    streamId: row.stream_id,
    streamPosition: BigInt(row.stream_position),
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}

function filterClause(filter: AllFilter | undefined, params: unknown[]): string {
  const parts: string[] = [];
  if (filter?.eventTypes) {
    params.push(filter.eventTypes);
    parts.push(`event_type = ANY($${params.length}::text[])`);
  }
  if (filter?.categories) {
    params.push(filter.categories);
    parts.push(`split_part(stream_id, '-', 1) = ANY($${params.length}::text[])`);
  }
  return parts.length ? `AND (${parts.join(' OR ')})` : '';
}

/**
 * The event store on SQL: the same code serves a real Postgres (`pg`) and the embedded PGlite. Its tables
 * come from `eventStoreMigrations`, which the composition root applies before building it.
 */
export async function createSqlEventStore(deps: {
  sql: Sql;
  maxConcurrentBatches?: number;
  /**
   * How long a subscription with nothing awaited sleeps (default: 250 ms until LISTEN is in place, 2 s
   * after). Tests set it far out to prove that what a reader read came from a wake-up or a waiter, not
   * from its idle poll.
   */
  idlePollMs?: number;
}): Promise<EventStore> {
  const { sql } = deps;

  const append = createAppendBatcher({
    db: sql,
    // PGlite has one backend: a second batch in flight would only queue behind the first.
    maxInFlight: deps.maxConcurrentBatches ?? (sql.kind === 'pglite' ? 1 : 4),
    onCommitted: (newest, types) => {
      if (!newest) return;
      wakeLocal(newest, types);
      notifyOthers(newest);
    },
  });

  // At most one NOTIFY in flight; commits meanwhile are covered by one more afterwards, with the newest
  // position. The payload names this store, whose own subscriptions were woken directly already, and
  // where the append landed, so the other processes' subscriptions know what to look for. It is not sent
  // from inside the append's statement (which would save this round trip): a transaction that notifies
  // holds a server-wide lock through its commit, so appends would flush one after the other.
  // Nor is it sent when nobody else listens (see `othersListen`): a lone process, the one-process server
  // on Postgres, paid a statement per append for it.
  const self = randomUUID();
  let notifying = false;
  let notifyNext: AllPosition | undefined;
  function notifyOthers(newest: AllPosition) {
    if (!othersListen()) return;
    if (notifying) {
      if (!notifyNext || comparePositions(newest, notifyNext) > 0) notifyNext = newest;
      return;
    }
    notifying = true;
    sql
      .query(`SELECT pg_notify($1, $2)`, [EVENTS_CHANNEL, `${self} ${newest.commit}:${newest.prepare}`])
      .catch(() => {
        // Other processes still see the events on their next poll.
      })
      .finally(() => {
        notifying = false;
        const next = notifyNext;
        notifyNext = undefined;
        if (next) notifyOthers(next);
      });
  }

  /**
   * Whether another process (or another store on this database) listens for appends, so that a NOTIFY has
   * anyone to wake. On PGlite there is one process, whose stores share the instance's notifications: always
   * sent. On Postgres: once any other store is heard from, for good (sending to a listener that left costs
   * a statement, missing one costs it seconds); until then, the listening sessions the server shows are
   * counted now and then, and NOTIFY is left out only after a count found none. A store that starts
   * listening says so at once (a `hello`), so one that started after the last count is not missed until the
   * next: a count made after this store's own LISTEN sees every listener that started before it, and every
   * later one's hello reaches it. (A store that never listens, such as an API process's that only appends,
   * hears no hello: a listener starting after it counted alone waits at most PEER_COUNT_MS, polling.)
   */
  let othersHeard = sql.kind === 'pglite';
  /** Until a count says nobody else listens, NOTIFY is sent as before. */
  let alone = false;
  let lastCount = 0;
  let counting = false;
  function othersListen(): boolean {
    if (othersHeard) return true;
    if (!counting && Date.now() - lastCount >= PEER_COUNT_MS) void countListeners();
    return !alone;
  }
  async function countListeners() {
    counting = true;
    try {
      const { rows } = await sql.query<{ n: number }>(
        // A session of another role shows no statement; one named as a LISTEN connection counts then.
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database()
           AND (query = $1 OR (query = '<insufficient privilege>' AND application_name LIKE '%-listen'))`,
        [listenStatement(EVENTS_CHANNEL)],
      );
      if ((rows[0]?.n ?? 0) > (heard ? 1 : 0)) othersHeard = true;
      else alone = true;
    } catch {
      // Counted again later; meanwhile the others' subscriptions still poll.
    } finally {
      lastCount = Date.now();
      counting = false;
    }
  }

  function onNotification(payload: string) {
    const [from, position] = payload.split(' ');
    if (from === self) return;
    othersHeard = true;
    if (position === 'hello') return;
    const match = /^(\d+):(\d+)$/.exec(position ?? '');
    wakeLocal(match ? { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) } : undefined);
  }

  /** LISTEN is in place: every append, ours or another process's, wakes the subscriptions. */
  let heard = false;
  const idlePollMs = () => deps.idlePollMs ?? (heard ? IDLE_POLL_LISTENING_MS : undefined);

  // Local wake-ups cut latency for subscribers in the same process; LISTEN covers other processes.
  const localWaiters: LocalWaiters = new Set();
  const wakeLocal = (newest?: AllPosition, types?: ReadonlySet<string>) => {
    localWaiters.forEach((wake) => wake(newest, types));
  };

  async function readAll(options: ReadAllOptions = {}): Promise<AllBatch> {
    const after = options.after ?? START_POSITION;
    const limit = options.maxCount ?? 1000;
    const params: unknown[] = [after.commit.toString(), after.prepare.toString(), limit];
    const filter = filterClause(options.filter, params);
    // One statement, so the page and the horizon come from the same snapshot (see read-horizon.ts).
    const { rows } = await sql.query<EventRow & { kind: 'event' | 'horizon' }>(
      `WITH snapshot AS (${HORIZON_SQL}),
       page AS (
         SELECT 'event' AS kind, ${EVENT_COLUMNS} FROM events, snapshot
         WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
           AND transaction_id < snapshot.horizon ${filter}
         ORDER BY events.transaction_id, events.global_position LIMIT $3
       ),
       horizon AS (
         SELECT 'horizon' AS kind, global_position::text, transaction_id::text, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::jsonb, NULL::timestamptz
         FROM events, snapshot WHERE transaction_id < snapshot.horizon
         ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1
       )
       SELECT * FROM page UNION ALL SELECT * FROM horizon`,
      params,
      // Run a few times a chat turn: planning it cost more than running it (0.3–0.5 ms against 0.1).
      { prepared: true },
    );
    const events = rows.filter((row) => row.kind === 'event').map(toRecorded);
    const horizonRow = rows.find((row) => row.kind === 'horizon');
    const full = events.length >= limit;
    let next = after;
    if (full) next = events[events.length - 1]!.position;
    else if (horizonRow) {
      const horizon = { commit: BigInt(horizonRow.transaction_id), prepare: BigInt(horizonRow.global_position) };
      next =
        horizon.commit > after.commit || (horizon.commit === after.commit && horizon.prepare > after.prepare)
          ? horizon
          : after;
    }
    return { events, next, atEnd: !full };
  }

  /**
   * Stream reads asked in the same turn of the event loop go to the database in one statement, each with its
   * own page: a chat message's thread and assistant (read side by side), the conversations of other
   * requests arriving together. One statement whether or not events follow: each stream's row is joined to
   * its page, so a read that finds nothing new (a remembered stream asking for its tail) still learns
   * whether the stream was deleted.
   */
  const askStream = gatheredEachTurn((reads: StreamRead[]) => {
    // Shared, each stream gives a page at most: one long stream (an assistant's crawled site, read whole
    // for the first time) does not hold up the conversations read with it; the rest of it is read after.
    const shared = reads.length > 1;
    const limitOf = (read: StreamRead) => (shared ? Math.min(read.maxCount, SHARED_STREAM_PAGE) : read.maxCount);
    sql
      .query<StreamRow>(
        `SELECT r.idx::int AS idx, ${EVENT_COLUMNS}, stream.deleted
         FROM unnest($1::text[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS r(sid, from_revision, max_count, idx)
         CROSS JOIN LATERAL (SELECT (SELECT deleted FROM streams WHERE streams.stream_id = r.sid) AS deleted) AS stream
         LEFT JOIN LATERAL (
           SELECT * FROM events WHERE events.stream_id = r.sid AND stream_position >= r.from_revision
           ORDER BY events.stream_position LIMIT r.max_count
         ) AS page ON true
         ORDER BY r.idx, page.stream_position`,
        [reads.map((r) => r.streamId), reads.map((r) => r.fromRevision), reads.map(limitOf)],
        { prepared: true },
      )
      .then(
        ({ rows }) => {
          const byRead = reads.map((): StreamRow[] => []);
          for (const row of rows) byRead[row.idx - 1]!.push(row);
          reads.forEach((read, i) => {
            const found = byRead[i]!;
            if (found[0]?.deleted) return read.reject(new StreamDeletedError(read.streamId));
            try {
              const events = found.flatMap((row) =>
                row.global_position === null ? [] : [toRecorded(row as EventRow)],
              );
              const limit = limitOf(read);
              if (events.length < limit || limit === read.maxCount) return read.resolve(events);
              // A page short of what was asked for: the rest follows from the next revision (the stream is
              // append-only, so the two pages make the stream as it is at the second).
              askStream({
                streamId: read.streamId,
                fromRevision: (events[events.length - 1]!.streamPosition + 1n).toString(),
                maxCount: read.maxCount - limit,
                resolve: (rest) => read.resolve([...events, ...rest]),
                reject: read.reject,
              });
            } catch (error) {
              read.reject(error);
            }
          });
        },
        (error: unknown) => reads.forEach((read) => read.reject(error)),
      );
  });

  // The subscriptions woken by one append read the log once between them (coalesced-read.ts).
  const subscriptionsRead = coalescedReadAll(readAll);

  let unlisten: (() => Promise<void>) | undefined;
  let listening: Promise<void> | undefined;
  const ensureListening = () =>
    (listening ??= sql.listen(EVENTS_CHANNEL, onNotification).then(
      async (stop) => {
        unlisten = stop;
        heard = true;
        if (sql.kind === 'postgres') {
          // Stores already running learn of this one now, and this one counts those.
          await sql.query(`SELECT pg_notify($1, $2)`, [EVENTS_CHANNEL, `${self} hello`]).catch(() => {});
          lastCount = 0;
          await countListeners();
        }
      },
      () => {
        // Without LISTEN subscribers still make progress by polling.
      },
    ));

  return {
    name: sql.kind,

    async appendToStream(
      streamId: string,
      events: readonly NewEvent[],
      { expectedRevision }: { expectedRevision: ExpectedRevision },
    ) {
      if (events.length === 0) throw new Error('nothing to append');
      return append(streamId, events, expectedRevision);
    },

    readStream: (streamId, options = {}) =>
      new Promise<RecordedEvent[]>((resolve, reject) =>
        askStream({
          streamId,
          fromRevision: (options.fromRevision ?? 0n).toString(),
          maxCount: options.maxCount ?? 2_147_483_647,
          resolve,
          reject,
        }),
      ),

    readAll,

    subscribeToAll(options) {
      void ensureListening();
      return pollingSubscription({ readAll: subscriptionsRead, options, localWaiters, idlePollMs });
    },

    async deleteStream(streamId, { expectedRevision }) {
      const { rows } = await sql.query<{ version: string; deleted: boolean }>(
        `SELECT version::text, deleted FROM streams WHERE stream_id = $1`,
        [streamId],
      );
      const current = rows[0];
      if (current?.deleted) throw new StreamDeletedError(streamId);
      const actual = current ? BigInt(current.version) : ('no_stream' as const);
      const matches =
        expectedRevision === 'any' ||
        (expectedRevision === 'stream_exists' && current !== undefined) ||
        (expectedRevision === 'no_stream' && current === undefined) ||
        (typeof expectedRevision === 'bigint' && actual === expectedRevision);
      if (!matches) throw new WrongExpectedVersionError(streamId, expectedRevision, actual);
      const updated = await sql.query(
        `INSERT INTO streams (stream_id, version, deleted) VALUES ($1, -1, true)
         ON CONFLICT (stream_id) DO UPDATE SET deleted = true WHERE streams.version = $2::bigint AND NOT streams.deleted
         RETURNING stream_id`,
        [streamId, current ? current.version : '-1'],
      );
      if (updated.rows.length === 0) throw new WrongExpectedVersionError(streamId, expectedRevision, 'unknown');
    },

    async headPosition(): Promise<AllPosition> {
      const { rows } = await sql.query<{ tx: string; pos: string }>(
        // Every committed event, not only those below the horizon: a reader that has passed this position
        // has read everything committed now (see HORIZON_SQL), so a wait for it cannot return early.
        `SELECT transaction_id::text AS tx, global_position::text AS pos FROM events
         ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
      );
      return rows[0] ? { commit: BigInt(rows[0].tx), prepare: BigInt(rows[0].pos) } : START_POSITION;
    },

    async close() {
      await listening;
      await unlisten?.();
    },
  };
}
