/**
 * The header that names what a message is: the relay sets it to the event's type (relayed-event.ts).
 * A consumer that declares its `eventTypes` is handed only messages whose header names one of them; the
 * adapters decide from the header (Kafka) or in the query (the in-process bus), never from the value,
 * so a worker that reacts to one event type of a busy topic does not read the rest.
 */
export const EVENT_TYPE_HEADER = 'event-type';

/**
 * Whether a consumer takes a message of `type`. No declared types: everything. A message without the
 * header (published by something other than the relay) is taken: only its handler can tell what it is.
 */
export function acceptsEventType(eventTypes: readonly string[] | undefined): (type: string | undefined) => boolean {
  if (!eventTypes) return () => true;
  const wanted = new Set(eventTypes);
  return (type) => type === undefined || wanted.has(type);
}
