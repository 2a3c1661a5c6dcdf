import { chatMessages } from '@kesher/contracts/rules/chat';
import { limits } from '@kesher/contracts/rules/limits';
import { ApiError, localizedDetail } from '@/lib/api-error';

/**
 * The chat's rules and timings (spec part 1 §4, §5, §8, §9) as plain functions, so the screen stays a
 * thin shell over them and each number can be tested on its own.
 */

/** Run polling (§9): first check after 300 ms, ×1.5 every 3 attempts up to 2 s, at most 100 attempts. */
export const POLL_FIRST_MS = 300;
export const POLL_GROWTH = 1.5;
export const POLL_GROW_EVERY = 3;
export const POLL_MAX_MS = 2000;
export const POLL_MAX_ATTEMPTS = 100;
/** On network errors: retry from 1 s, doubling every 5 attempts up to 5 s (same 100-attempt cap). */
export const NETWORK_RETRY_FIRST_MS = 1000;
export const NETWORK_RETRY_DOUBLE_EVERY = 5;
export const NETWORK_RETRY_MAX_MS = 5000;

/** Safety resets (§9): the sending flag after 10 s, the running flag after 45 s. */
export const LOADING_RESET_MS = 10_000;
export const RUNNING_RESET_MS = 45_000;
/** The thinking bar climbs every 0.8 s and never passes 85 % until the answer is there. */
export const PROGRESS_TICK_MS = 800;
export const PROGRESS_CAP = 85;
/** A freshly arrived redirect opens after 1 s (§9). */
export const REDIRECT_DELAY_MS = 1000;
/** Feedback thanks (§4) shows for 2 s. */
export const FEEDBACK_THANKS_MS = 2000;
export const FEEDBACK_COMMENT_MAX = limits.feedbackCommentChars;

/** The wait before check number `attempt` (0-based) while the run answers normally. */
export function pollDelay(attempt: number): number {
  return Math.min(POLL_MAX_MS, Math.round(POLL_FIRST_MS * POLL_GROWTH ** Math.floor(attempt / POLL_GROW_EVERY)));
}

/** The wait after the `failures`-th (0-based) network error in a row. */
export function networkRetryDelay(failures: number): number {
  return Math.min(
    NETWORK_RETRY_MAX_MS,
    NETWORK_RETRY_FIRST_MS * 2 ** Math.floor(failures / NETWORK_RETRY_DOUBLE_EVERY),
  );
}

/** The whole schedule of a run that never fails to answer the check: one wait per attempt. */
export function chatPollDelays(): number[] {
  return Array.from({ length: POLL_MAX_ATTEMPTS }, (_, attempt) => pollDelay(attempt));
}

/** The stage text key for a progress value (§4): < 25, < 50, < 75, then finalizing. */
export function progressStage(progress: number): 'analyzing' | 'thinking' | 'generating' | 'finalizing' {
  if (progress < 25) return 'analyzing';
  if (progress < 50) return 'thinking';
  if (progress < 75) return 'generating';
  return 'finalizing';
}

/** One tick of the thinking bar: a random step of up to 10 points, never past 85 %. */
export function nextProgress(progress: number, random: number = Math.random()): number {
  return Math.min(PROGRESS_CAP, progress + Math.max(0, Math.min(1, random)) * 10);
}

/** Links from the embed frame stay in the frame; everywhere else they open a new tab (§2). */
export function linkTarget(pathname: string): '_self' | '_blank' {
  return pathname.startsWith('/embed/') ? '_self' : '_blank';
}

const TRY_AGAIN_SUFFIX = 'tryAgainSuffix';

/**
 * The alert for a failed thread creation (§8 Chat): catalogue texts by status, "Invalid assistant ID"
 * reworded, otherwise the server's words; always followed by the "try again or contact support" line.
 */
export function threadStartError(error: unknown, t: (key: string) => string): string {
  let text: string;
  if (!(error instanceof ApiError)) text = t('errors.threadNetwork');
  else if (error.detail === chatMessages.invalidShareLink) text = t('invalidShareLink');
  else if (error.detail === chatMessages.invalidAssistantId) text = t('errors.threadConfig');
  else if (error.status === 401) text = t('errors.threadAuth');
  else if (error.status === 403) text = t('errors.threadForbidden');
  else if (error.status === 404) text = t('errors.threadAssistantNotFound');
  else if (error.status !== null && error.status >= 500) text = t('errors.threadServer');
  else if (error.code === 'network' || error.code === 'timeout' || error.code === 'offline')
    text = t('errors.threadNetwork');
  else text = localizedDetail(error) ?? t('errors.sendFailed');
  return `${text}${t(`errors.${TRY_AGAIN_SUFFIX}`)}`;
}

/**
 * The alert for a refused message or run: the server's own words for 4xx answers (the chat limit, "still
 * answering", validation), the network text, else 'Error sending message'.
 */
export function sendError(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiError) {
    if (error.code === 'network' || error.code === 'timeout' || error.code === 'offline') return t('errors.network');
    if (error.status === 401) return t('errors.threadAuth');
    if (error.status !== null && error.status < 500 && error.detail) return localizedDetail(error)!;
  }
  return t('errors.sendFailed');
}

/** The alert for a conversation that could not be read: like a refused message, with its own fallback. */
export function loadError(error: unknown, t: (key: string) => string): string {
  const text = sendError(error, t);
  return text === t('errors.sendFailed') ? t('errors.loadFailed') : text;
}

/** A thread the reader may not see (404) or a malformed id (400): the chat starts fresh (§7). */
export const isThreadGone = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

export const isNetworkError = (error: unknown) =>
  error instanceof ApiError && (error.code === 'network' || error.code === 'timeout');
