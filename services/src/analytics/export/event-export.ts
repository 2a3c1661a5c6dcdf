import {
  categoryOf,
  comparePositions,
  START_POSITION,
  upcast,
  type AllPosition,
  type RecordedEvent,
} from '@kesher/contracts';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { toMessage } from '../../platform/bus/relayed-event.js';
import { UPCAST_MARK, type CopyLogReader } from './copy-log-reader.js';
import type { SqlLogReader } from './sql-log-reader.js';

/** Which events to export. Times compare with each event's own time (metadata.timestamp), both ends included. */
export interface ExportFilter {
  from?: Date;
  to?: Date;
  types?: readonly string[];
  /** Only what concerns this owner: their account, assistants, files, conversations (visitors' too), refusals… */
  ownerId?: string;
  assistantId?: string;
}

export interface ExportProgress {
  read: number;
  written: number;
  position: AllPosition;
  head: AllPosition;
}

/** An event as the export handles it: its NDJSON line, and what the filters look at. */
export interface ExportedEvent {
  streamId: string;
  type: string;
  /** The event's own time (metadata.timestamp). */
  timestamp: string;
  /** The ownership fields of its data, where it has them. */
  owners: { ownerId?: string; assistantOwnerId?: string; assistantId?: string; accountId?: string };
  line: string;
}

/** Where the export reads the log from, a page at a time, oldest first. */
export interface LogSource {
  head(): Promise<AllPosition>;
  page(
    after: AllPosition | undefined,
    limit: number,
    types?: readonly string[],
  ): Promise<{ events: ExportedEvent[]; next: AllPosition; atEnd: boolean }>;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** Any event store, through its port: each event is parsed (and upcast) by the store, then written again. */
export function eventStoreSource(eventStore: Pick<EventStore, 'readAll' | 'headPosition'>): LogSource {
  return {
    head: () => eventStore.headPosition(),
    async page(after, limit, types) {
      const batch = await eventStore.readAll({
        after,
        maxCount: limit,
        filter: types ? { eventTypes: [...types] } : undefined,
      });
      return {
        next: batch.next,
        atEnd: batch.atEnd || batch.events.length === 0,
        events: batch.events.map((event: RecordedEvent) => {
          const data = (event.data ?? {}) as Record<string, unknown>;
          return {
            streamId: event.streamId,
            type: event.type,
            timestamp: event.metadata.timestamp,
            owners: {
              ownerId: text(data.ownerId),
              assistantOwnerId: text(data.assistantOwnerId),
              assistantId: text(data.assistantId),
              accountId: text(data.accountId),
            },
            line: toMessage(event).value,
          };
        }),
      };
    },
  };
}

/** The Postgres/PGlite log as text (see sql-log-reader.ts): the same lines, without parsing in Node. */
export function sqlLogSource(reader: SqlLogReader): LogSource {
  return {
    head: () => reader.head(),
    async page(after, limit, types) {
      const events = await reader.page(after ?? { commit: 0n, prepare: 0n }, limit, types);
      return {
        events,
        next: events.at(-1)?.position ?? after ?? { commit: 0n, prepare: 0n },
        atEnd: events.length < limit,
      };
    },
  };
}

export interface ExportDeps {
  source: LogSource;
  /**
   * The Postgres log through COPY (copy-log-reader.ts): used when no owner or assistant is asked for —
   * then every filter is one Postgres can apply, and Node only passes bytes on.
   */
  copy?: Pick<CopyLogReader, 'pageEnd' | 'copy'>;
  /** Receives the NDJSON, whole lines at a time; return a promise to hold the export back (a full pipe). */
  write: (chunk: string | Buffer) => void | Promise<void>;
  onProgress?: (progress: ExportProgress) => void;
  pageSize?: number;
  /** Events per COPY page (how often progress is reported on that path). */
  copyPageSize?: number;
}

interface Owners {
  ownerId?: string;
  assistantId?: string;
}

/**
 * Whose an event is. Few events name the owner themselves; the rest inherit it from their stream (a
 * conversation's messages from its start, a file's ingestion from its upload) or from their assistant,
 * so the log is read from its first event whenever an owner or assistant is asked for.
 */
export function createAttribution() {
  const streams = new Map<string, Owners>();
  const assistantOwners = new Map<string, string>();
  return (event: Pick<ExportedEvent, 'streamId' | 'owners'>): Owners => {
    const data = event.owners;
    const known = streams.get(event.streamId) ?? {};
    const assistantId = data.assistantId ?? known.assistantId;
    const ownerId =
      data.assistantOwnerId ??
      data.ownerId ??
      (categoryOf(event.streamId) === 'account' ? data.accountId : undefined) ??
      known.ownerId ??
      (assistantId ? assistantOwners.get(assistantId) : undefined);
    if (assistantId && ownerId && !assistantOwners.has(assistantId)) assistantOwners.set(assistantId, ownerId);
    if ((ownerId && !known.ownerId) || (assistantId && !known.assistantId))
      streams.set(event.streamId, { ownerId: known.ownerId ?? ownerId, assistantId: known.assistantId ?? assistantId });
    return { ownerId, assistantId };
  };
}

/**
 * Writes the event log as NDJSON, one event a line in the shape the relay puts on the Kafka topics
 * (eventId, streamId, streamPosition, position, type, data, metadata, createdAt), oldest first.
 */
export async function exportEvents(
  deps: ExportDeps,
  filter: ExportFilter = {},
): Promise<{ read: number; written: number }> {
  const pageSize = deps.pageSize ?? 5000;
  const byOwner = filter.ownerId !== undefined || filter.assistantId !== undefined;
  const attribute = byOwner ? createAttribution() : undefined;
  const types = filter.types && filter.types.length > 0 ? new Set(filter.types) : undefined;
  const from = filter.from?.toISOString();
  const to = filter.to?.toISOString();
  const head = await deps.source.head();
  if (deps.copy && !byOwner) return exportByCopy(deps.copy, deps, head, { types: types && [...types], from, to });
  let after: AllPosition | undefined;
  let read = 0;
  let written = 0;
  for (;;) {
    // Without owners to follow, the store filters by type itself; with them, every event may name one.
    const batch = await deps.source.page(after, pageSize, types && !byOwner ? [...types] : undefined);
    let chunk = '';
    for (const event of batch.events) {
      read++;
      const owners = attribute?.(event);
      if (types && !types.has(event.type)) continue;
      // ISO instants in UTC compare as text; a timestamp written with an offset is compared as an instant.
      const at = event.timestamp.endsWith('Z') ? event.timestamp : new Date(event.timestamp).toISOString();
      if ((from && at < from) || (to && at > to)) continue;
      if (filter.ownerId !== undefined && owners?.ownerId !== filter.ownerId) continue;
      if (filter.assistantId !== undefined && owners?.assistantId !== filter.assistantId) continue;
      chunk += `${event.line}\n`;
      written++;
    }
    if (chunk) await deps.write(chunk);
    after = batch.next;
    deps.onProgress?.({ read, written, position: after, head });
    if (batch.atEnd || after.commit > head.commit || (after.commit === head.commit && after.prepare >= head.prepare))
      break;
  }
  return { read, written };
}

/**
 * The export without owners to follow: page by page, Postgres writes the lines (filtered by type and
 * time) and they go out as they come, cut only at line ends — no event is parsed in Node unless it needs
 * upcasting.
 */
async function exportByCopy(
  copy: NonNullable<ExportDeps['copy']>,
  deps: ExportDeps,
  head: AllPosition,
  filter: { types?: string[]; from?: string; to?: string },
) {
  const pageSize = deps.copyPageSize ?? 50_000;
  /** A page's end, and its bytes being copied (on a connection of its own). */
  const startPage = async (after: AllPosition) => {
    if (comparePositions(after, head) >= 0) return null;
    const end = await copy.pageEnd(after, head, pageSize, filter.types);
    const chunks = (async () => {
      const all: Buffer[] = [];
      for await (const chunk of copy.copy({ after, upto: end.upto, ...filter })) all.push(chunk);
      return all;
    })();
    chunks.catch(() => {});
    return { ...end, chunks };
  };
  let read = 0;
  let written = 0;
  let page = await startPage(START_POSITION);
  while (page) {
    // Postgres writes the next page (on another core, where there is one) while this one goes out.
    const next = startPage(page.upto);
    next.catch(() => {});
    let carry: Buffer | undefined;
    for (const chunk of await page.chunks) {
      const data = carry ? Buffer.concat([carry, chunk]) : chunk;
      const end = data.lastIndexOf(10);
      carry = end + 1 < data.length ? Buffer.from(data.subarray(end + 1)) : undefined;
      if (end < 0) continue;
      let lines = data.subarray(0, end + 1);
      if (lines.includes(UPCAST_MARK)) lines = Buffer.from(upcastMarked(lines.toString('utf8')), 'utf8');
      written += countLines(lines);
      await deps.write(lines);
    }
    if (carry) throw new Error('the log copy ended inside a line');
    read += page.events;
    deps.onProgress?.({ read, written, position: page.upto, head });
    page = await next;
  }
  return { read, written };
}

function countLines(lines: Buffer) {
  let n = 0;
  for (let i = lines.indexOf(10); i >= 0; i = lines.indexOf(10, i + 1)) n++;
  return n;
}

/** The marked lines (stored at an older schema version) parsed, upcast and written again; the others as they are. */
function upcastMarked(text: string) {
  return text
    .split('\n')
    .map((line) => {
      if (line.charCodeAt(0) !== UPCAST_MARK) return line;
      const event = JSON.parse(line.slice(1)) as { type: string; data: unknown; metadata: { schemaVersion?: number } };
      return JSON.stringify({ ...event, data: upcast(event.type, event.data, event.metadata.schemaVersion ?? 1) });
    })
    .join('\n');
}

/** A one-line progress bar for a terminal: share of the log read, events written, rate. */
export function progressLine(progress: ExportProgress, elapsedMs: number, width = 30): string {
  const total = Number(progress.head.prepare);
  const done = Math.min(1, total > 0 ? Number(progress.position.prepare) / total : 1);
  const filled = Math.round(done * width);
  const rate = elapsedMs > 0 ? Math.round((progress.read / elapsedMs) * 1000) : 0;
  const n = (value: number) => value.toLocaleString('en-US');
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(done * 100)}% · ${n(progress.read)} read · ${n(progress.written)} written · ${n(rate)} events/s`;
}
