import { eventDefinitions, personalDataOf, streamIds, categoryOf } from '@kesher/contracts';
import { z } from 'zod';
import { topicFor } from '../platform/bus/relayed-event.js';

/** Where the generated document lives (docs/event-schemas.json), relative to the repository. */
export const EVENT_SCHEMAS_PATH = 'docs/event-schemas.json';

/**
 * The event log's schemas for analysts, generated from the contracts: every event type with its current
 * version and the JSON Schema of its data, every Kafka topic the relay writes (one per stream category),
 * and the envelope each message carries. A test keeps docs/event-schemas.json equal to this.
 */
export function eventSchemasDocument() {
  const events = Object.fromEntries(
    Object.entries(eventDefinitions)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, definition]) => [
        type,
        {
          version: definition.version,
          ...(personalDataOf(type) ? { personal: personalDataOf(type)!.fields } : {}),
          data: z.toJSONSchema(definition.schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }),
        },
      ]),
  );
  const topics = Object.values(streamIds)
    .map((streamId) => streamId('x'))
    .map((stream) => ({ topic: topicFor(stream), streams: `${categoryOf(stream)}-<id>` }))
    .sort((a, b) => a.topic.localeCompare(b.topic));
  return {
    $comment:
      'Generated from contracts/src/events by `npx tsx services/src/main/event-schemas.main.ts`; do not edit by hand.',
    message: {
      description: 'Each Kafka message (key: the stream id) and each line of `npm run export` is one event as JSON.',
      fields: {
        eventId: 'uuid; duplicates of a message carry the same id',
        streamId: '`<category>-<id>`; the category names the topic',
        streamPosition: "the event's revision in its stream (string, 0-based)",
        position: '`commit:prepare` in the global log',
        type: 'the event type (below)',
        data: 'the event\'s data, as the type\'s schema says (upcast to its current version), except its `personal` fields: those travel sealed per data subject, `{ $pii: 1, k: key id, c: cipher text, t: kind }`, and read "[erased]" once the subject is erased (docs/privacy.md)',
        metadata:
          '{ eventId, correlationId, causationId, actor: { kind: account | visitor | system, id }, timestamp (ISO 8601, UTC), schemaVersion }',
        createdAt: 'when the store recorded it (ISO 8601)',
      },
    },
    topics,
    events,
  };
}

export const eventSchemasJson = () => `${JSON.stringify(eventSchemasDocument(), null, 2)}\n`;
