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
