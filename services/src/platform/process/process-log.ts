import { pino, type DestinationStream, type Logger } from 'pino';
import { EVENT_TYPE_HEADER } from '../bus/event-types.js';
import type { DeliveredMessage } from '../bus/message-bus.port.js';

/** A process's structured log: one JSON line per entry, each naming the process it came from. */
export type ProcessLog = Logger;

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * pino for a process that is not (only) the API: the same library and line shape Fastify's request log
 * uses, so an operator filters every process's lines by `process` (and a bus message's by
 * `correlationId`) instead of reading free text that workers wrote with console.error.
 */
export function createProcessLog(
  processName: string,
  options: {
    level?: LogLevel;
    destination?: DestinationStream;
    /** Log to stderr: for a command whose stdout is its output (the NDJSON export). */
    stderr?: boolean;
  } = {},
): ProcessLog {
  return pino(
    {
      level: options.level ?? 'info',
      base: { process: processName, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? (options.stderr ? pino.destination(2) : undefined),
  );
}

/**
 * The fields that find a bus message again: where it sits, its key, and the event's id, type and
 * correlation id (the command that caused it) — the correlation id read from the value only here, on
 * the failure path, since the relay's headers do not carry it.
 */
export function messageFields(message: DeliveredMessage): Record<string, string | number> {
  const fields: Record<string, string | number> = {
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    key: message.key,
  };
  if (message.headers['event-id']) fields.eventId = message.headers['event-id'];
  if (message.headers[EVENT_TYPE_HEADER]) fields.eventType = message.headers[EVENT_TYPE_HEADER];
  const correlationId = correlationIdOf(message.value);
  if (correlationId) fields.correlationId = correlationId;
  return fields;
}

function correlationIdOf(value: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    const metadata =
      typeof parsed === 'object' && parsed !== null ? (parsed as { metadata?: unknown }).metadata : undefined;
    const id =
      typeof metadata === 'object' && metadata !== null
        ? (metadata as { correlationId?: unknown }).correlationId
        : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
