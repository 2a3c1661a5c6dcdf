import { categoryOf, type AllPosition, type RecordedEvent } from '@kesher/contracts';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { toMessage } from '../../workers/relay/relayed-event.js';

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

export interface ExportDeps {
  eventStore: Pick<EventStore, 'readAll' | 'headPosition'>;
  /** Receives the NDJSON, a page at a time; return a promise to hold the export back (a full pipe). */
  write: (chunk: string) => void | Promise<void>;
  onProgress?: (progress: ExportProgress) => void;
  pageSize?: number;
}

interface Owners {
  ownerId?: string;
  assistantId?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * Whose an event is. Few events name the owner themselves; the rest inherit it from their stream (a
 * conversation's messages from its start, a file's ingestion from its upload) or from their assistant,
 * so the log is read from its first event whenever an owner or assistant is asked for.
 */
export function createAttribution() {
  const streams = new Map<string, Owners>();
  const assistantOwners = new Map<string, string>();
  return (event: RecordedEvent): Owners => {
    const data = (event.data ?? {}) as Record<string, unknown>;
    const known = streams.get(event.streamId) ?? {};
    const assistantId = text(data.assistantId) ?? known.assistantId;
    const ownerId =
      text(data.assistantOwnerId) ??
      text(data.ownerId) ??
      (categoryOf(event.streamId) === 'account' ? text(data.accountId) : undefined) ??
      known.ownerId ??
      (assistantId ? assistantOwners.get(assistantId) : undefined);
    if (assistantId && ownerId && !assistantOwners.has(assistantId)) assistantOwners.set(assistantId, ownerId);
    if ((ownerId && !known.ownerId) || (assistantId && !known.assistantId)) streams.set(event.streamId, { ownerId: known.ownerId ?? ownerId, assistantId: known.assistantId ?? assistantId });
    return { ownerId, assistantId };
  };
}

/**
 * Writes the event log as NDJSON, one event a line in the shape the relay puts on the Kafka topics
 * (eventId, streamId, streamPosition, position, type, data, metadata, createdAt), oldest first.
 */
export async function exportEvents(deps: ExportDeps, filter: ExportFilter = {}): Promise<{ read: number; written: number }> {
  const pageSize = deps.pageSize ?? 5000;
  const byOwner = filter.ownerId !== undefined || filter.assistantId !== undefined;
  const attribute = byOwner ? createAttribution() : undefined;
  const types = filter.types && filter.types.length > 0 ? new Set(filter.types) : undefined;
  const from = filter.from?.toISOString();
  const to = filter.to?.toISOString();
  const head = await deps.eventStore.headPosition();
  let after: AllPosition | undefined;
  let read = 0;
  let written = 0;
  for (;;) {
    // Without owners to follow, the store filters by type itself; with them, every event may name one.
    const batch = await deps.eventStore.readAll({ after, maxCount: pageSize, filter: types && !byOwner ? { eventTypes: [...types] } : undefined });
    let chunk = '';
    for (const event of batch.events) {
      read++;
      const owners = attribute?.(event);
      if (types && !types.has(event.type)) continue;
      const at = event.metadata.timestamp;
      if ((from && at < from) || (to && at > to)) continue;
      if (filter.ownerId !== undefined && owners?.ownerId !== filter.ownerId) continue;
      if (filter.assistantId !== undefined && owners?.assistantId !== filter.assistantId) continue;
      chunk += `${toMessage(event).value}\n`;
      written++;
    }
    if (chunk) await deps.write(chunk);
    after = batch.next;
    deps.onProgress?.({ read, written, position: after, head });
    if (batch.atEnd || batch.events.length === 0 || after.commit > head.commit || (after.commit === head.commit && after.prepare >= head.prepare)) break;
  }
  return { read, written };
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
