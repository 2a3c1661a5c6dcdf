import type { ErrorCode } from '@kesher/contracts';

/**
 * An HTTP outcome with the text the client shows; thrown by routes only (a use case throws DomainError,
 * platform/commands/decider.ts), rendered by the error handler.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    /** Sent with the answer, e.g. `retry-after` with a 429. */
    readonly headers: Readonly<Record<string, string>> = {},
    /** The detail's code when its words alone do not name it (a catalogue text with a reason after it). */
    readonly code?: ErrorCode,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}
