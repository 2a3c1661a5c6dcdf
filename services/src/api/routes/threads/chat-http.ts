import { chatMessages, ErrorBodySchema, RunIdSchema, ThreadIdSchema } from '@kesher/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ChatCall } from '../../../chat/index.js';
import { ApiError } from '../../api-error.js';

/** Path ids stay plain strings in the route schemas; these check them and answer 400 with the spec's texts. */
export const ThreadParams = z.object({ threadId: z.string() });
export const RunParams = ThreadParams.extend({ runId: z.string() });

/**
 * Path ids are checked here rather than by the route schema: the spec's client reads a 400 as THREAD_INVALID
 * (and a 404 as THREAD_NOT_FOUND), and those are the texts the server sends.
 */
export function threadIdOf(raw: string): string {
  const parsed = ThreadIdSchema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, chatMessages.threadInvalid);
  return parsed.data;
}
export function runIdOf(raw: string): string {
  const parsed = RunIdSchema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, chatMessages.invalidRunId);
  return parsed.data;
}

/** The client's Last-Event-ID: the deltas it already has (0 when absent or not a sequence number). */
export function lastEventIdOf(request: FastifyRequest): number {
  const value = Number(request.headers['last-event-id']);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

export const callOf = (request: FastifyRequest): ChatCall => ({ correlationId: request.id, ip: request.ip });

/** Why a message can be refused after it passed its schema; the client shows `detail` as it is. */
export const postRefusedSchema = ErrorBodySchema.describe(
  "Refused: the conversation reached the assistant's chat_limit, or the assistant's owner reached the plan's monthly message limit " +
    '(the owner is told "You have reached your plan\'s monthly limit of {n} messages across all your assistants. Please try again next month or upgrade the plan."; ' +
    'a visitor "This assistant is not available right now. Please try again later."). ' +
    'Nothing is recorded; the monthly limit opens again on the 1st (UTC).',
);
