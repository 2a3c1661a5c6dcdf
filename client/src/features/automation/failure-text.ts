import { ApiError, localizedDetail } from '@/lib/api-error';

/**
 * The §8 alert ("Failed to create workflow. Please try again."), with the server's reason after it when
 * it refused the request (a 4xx says what to fix, e.g. "Title is required"); a 5xx adds nothing useful.
 */
export function failureText(alert: string, error: unknown): string {
  const reason =
    error instanceof ApiError && error.status !== null && error.status < 500 ? localizedDetail(error) : null;
  return reason ? `${alert} ${reason}` : alert;
}
