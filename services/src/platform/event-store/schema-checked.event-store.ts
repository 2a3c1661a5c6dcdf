import { EventMetadataSchema, EventSchemaError, upcast, validateNewEvent, type RecordedEvent } from '@kesher/contracts';
import { z } from 'zod';
import type { EventStore } from './event-store.port.js';

/**
 * Wraps any adapter so that only events matching their contract schema are appended (the whole append
 * is refused when one event is malformed — nothing partial is stored) and stored events are upcast to
 * their current schema version on the way out. Adapters stay schema-agnostic; the composition root
 * decides to wrap them.
 */
export function withEventSchemas(inner: EventStore): EventStore {
  const lift = (event: RecordedEvent): RecordedEvent => {
    const data = upcast(event.type, event.data, event.metadata?.schemaVersion ?? 1);
    // Most events are at their current version: no copy of each event read (a rebuild reads millions).
    return data === event.data ? event : { ...event, data };
  };

  return {
    name: inner.name,
    deleteStream: (streamId, options) => inner.deleteStream(streamId, options),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
    async appendToStream(streamId, events, options) {
      const checked = events.map((event) => {
        const metadata = EventMetadataSchema.safeParse(event.metadata);
        if (!metadata.success) throw new EventSchemaError(event.type, `metadata: ${z.prettifyError(metadata.error)}`);
        const { data, schemaVersion } = validateNewEvent(event.type, event.data);
        return { type: event.type, data, metadata: { ...metadata.data, schemaVersion } };
      });
      return inner.appendToStream(streamId, checked, options);
    },
    readStream: async (streamId, options) => (await inner.readStream(streamId, options)).map(lift),
    readAll: async (options) => {
      const batch = await inner.readAll(options);
      return { ...batch, events: batch.events.map(lift) };
    },
    subscribeToAll: (options) =>
      inner.subscribeToAll({
        ...options,
        onBatch: (batch) => options.onBatch({ ...batch, events: batch.events.map(lift) }),
      }),
  };
}
