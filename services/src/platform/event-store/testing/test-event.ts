import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@kesher/contracts';

/**
 * An event for tests of the log and its readers, which care about order and position, not about any
 * module's schema: a type, data to tell it apart, and the metadata every append carries.
 */
export function testEvent(type: string, data: Record<string, unknown>): NewEvent {
  return {
    type,
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: 'c',
      causationId: 'c',
      actor: { kind: 'system', id: 't' },
      timestamp: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/** The readers' tests' usual event: `Noted` with its number. */
export const noted = (n: number): NewEvent => testEvent('Noted', { n });

/**
 * One append of `event` to a new stream, as a statement for a connection of the test's own, through the
 * store's append function as its batcher sends it: so a test can hold it in an open transaction (its
 * commit at a moment the test chooses, or never).
 */
export const rawAppend = (streamId: string, event: NewEvent) => ({
  text: `SELECT status FROM kesher_append_batch($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])`,
  values: [
    [streamId],
    ['no_stream'],
    [1],
    [event.metadata.eventId],
    [event.type],
    [JSON.stringify(event.data)],
    [JSON.stringify(event.metadata)],
  ],
});
