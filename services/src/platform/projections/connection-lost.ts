/**
 * Whether an error says the database session went away (ended by the server, a failover, a network cut)
 * rather than that the work itself is wrong: such work is worth trying again on a new session.
 * SQLSTATE class 08 (connection exception), 57P01–57P03 (admin or crash shutdown, cannot connect now),
 * the socket's own errors, and node-postgres's messages for a session that ended under it (no code).
 */
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTCONN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const LOST_MESSAGES = [
  /connection terminated/i,
  /connection error and is not queryable/i,
  /client was closed and is not queryable/i,
  /terminating connection/i,
];

export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || SOCKET_CODES.has(code))
  )
    return true;
  if (LOST_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // pg wraps nothing, but an error may carry its cause (AggregateError of a refused connect, or `cause`).
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error && isConnectionLost(cause)) return true;
  return error instanceof AggregateError && error.errors.some(isConnectionLost);
}
