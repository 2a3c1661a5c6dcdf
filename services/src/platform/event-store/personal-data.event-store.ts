import type { EventStore } from './event-store.port.js';
import type { PersonalDataCodec } from './personal-data.codec.js';

/**
 * Wraps any adapter (Postgres, PGlite, EventStoreDB) so that declared personal fields are stored sealed
 * and read back opened (personal-data.codec.ts). It sits inside withEventSchemas: events are checked
 * against their schema in clear, and upcast after they are opened. The adapter itself — its batching,
 * its read horizon — is untouched; what it stores, and what the relay copies to the bus from it, is the
 * sealed form.
 */
export function withPersonalData(inner: EventStore, codec: PersonalDataCodec): EventStore {
  return {
    name: inner.name,
    deleteStream: (streamId, options) => inner.deleteStream(streamId, options),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
    appendToStream: async (streamId, events, options) =>
      inner.appendToStream(streamId, await codec.sealEvents(events), options),
    readStream: async (streamId, options) => codec.openEvents(await inner.readStream(streamId, options)),
    readAll: async (options) => {
      const batch = await inner.readAll(options);
      return { ...batch, events: await codec.openEvents(batch.events) };
    },
    subscribeToAll: (options) =>
      inner.subscribeToAll({
        ...options,
        onBatch: async (batch) => options.onBatch({ ...batch, events: await codec.openEvents(batch.events) }),
      }),
  };
}
