/** An HTTP outcome with the text the client shows; thrown by routes, rendered by the error handler. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    /** Sent with the answer, e.g. `retry-after` with a 429. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}
