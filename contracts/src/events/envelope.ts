import { z } from 'zod';

/** Who caused an event: a signed-in owner, an anonymous visitor session, or Kesher itself. */
export const ActorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('account'), id: z.string().min(1) }),
  z.object({ kind: z.literal('visitor'), id: z.string().min(1) }),
  z.object({ kind: z.literal('system'), id: z.string().min(1) }),
]);
export type Actor = z.infer<typeof ActorSchema>;

/**
 * Metadata carried by every stored event. Correlation and causation ids are what let an analyst
 * follow one conversation or one command through every worker that touched it.
 */
export const EventMetadataSchema = z.object({
  eventId: z.uuid(),
  correlationId: z.string().min(1),
  causationId: z.string().min(1),
  actor: ActorSchema,
  timestamp: z.iso.datetime(),
  schemaVersion: z.number().int().positive(),
});
export type EventMetadata = z.infer<typeof EventMetadataSchema>;

/** What a command handler hands to the event store: a type, its data, its metadata. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

/** Position in the global log ($all). Comparable lexicographically (commit, then prepare). */
export interface AllPosition {
  commit: bigint;
  prepare: bigint;
}

export const START_POSITION: AllPosition = { commit: 0n, prepare: 0n };

export function comparePositions(a: AllPosition, b: AllPosition): -1 | 0 | 1 {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export const positionToString = (p: AllPosition) => `${p.commit}:${p.prepare}`;
export function positionFromString(text: string): AllPosition {
  const match = /^(\d+):(\d+)$/.exec(text);
  if (!match) throw new Error(`not a log position: ${text}`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}

/** An event as read back from the store. */
export interface RecordedEvent<Type extends string = string, Data = unknown> {
  streamId: string;
  streamPosition: bigint;
  position: AllPosition;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  createdAt: Date;
}
