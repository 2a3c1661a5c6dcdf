import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { lookup } from '@/lib/texts';
import {
  chatPollDelays,
  linkTarget,
  networkRetryDelay,
  nextProgress,
  POLL_MAX_ATTEMPTS,
  progressStage,
  sendError,
  threadStartError,
} from './chat-rules';
import { en } from './locales/en';

const t = (key: string, vars?: Record<string, unknown>) => lookup(en, key, vars);

describe('the run polling schedule (spec §9)', () => {
  it('checks first after 300 ms and grows ×1.5 every 3 attempts up to 2 s, 100 attempts at most', () => {
    const delays = chatPollDelays();
    expect(delays).toHaveLength(POLL_MAX_ATTEMPTS);
    expect(delays.slice(0, 16)).toEqual([
      300, 300, 300, 450, 450, 450, 675, 675, 675, 1013, 1013, 1013, 1519, 1519, 1519, 2000,
    ]);
    expect(Math.max(...delays)).toBe(2000);
    expect(delays.at(-1)).toBe(2000);
  });

  it('after network errors retries from 1 s, doubling every 5 failures up to 5 s', () => {
    const waits = Array.from({ length: 17 }, (_, i) => networkRetryDelay(i));
    expect(waits).toEqual([
      1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000, 2000, 4000, 4000, 4000, 4000, 4000, 5000, 5000,
    ]);
  });
});

describe('the thinking indicator (spec §4, §9)', () => {
  it('names the stage by progress: < 25, < 50, < 75, then finalizing', () => {
    expect([0, 24.9, 25, 49, 50, 74, 75, 85, 100].map(progressStage)).toEqual([
      'analyzing',
      'analyzing',
      'thinking',
      'thinking',
      'generating',
      'generating',
      'finalizing',
      'finalizing',
      'finalizing',
    ]);
  });

  it('climbs randomly but never past 85 %', () => {
    expect(nextProgress(10, 0.5)).toBe(15);
    expect(nextProgress(10, 0)).toBe(10);
    let p = 0;
    for (let i = 0; i < 100; i++) p = nextProgress(p, 1);
    expect(p).toBe(85);
  });
});

describe('links and errors', () => {
  it('opens links in the same frame only inside the embed', () => {
    expect(linkTarget('/embed/tok')).toBe('_self');
    expect(linkTarget('/public-chat/4')).toBe('_blank');
    expect(linkTarget('/shared-chat/tok')).toBe('_blank');
    expect(linkTarget('/chat/4/thread_1')).toBe('_blank');
  });

  it('words a failed thread creation as the catalogue says, with the support line', () => {
    const suffix = ' Please try again or contact support if the problem persists.';
    expect(threadStartError(new ApiError('forbidden', 403, 'nope'), t)).toBe(
      `You don't have permission to create conversations with this assistant.${suffix}`,
    );
    expect(threadStartError(new ApiError('notFound', 404, null), t)).toBe(
      `Assistant not found. Please check if the assistant still exists.${suffix}`,
    );
    expect(threadStartError(new ApiError('server', 503, null), t)).toBe(
      `Server error. Please try again in a few moments.${suffix}`,
    );
    expect(threadStartError(new ApiError('unexpected', 422, 'Invalid assistant ID'), t)).toBe(
      `Assistant configuration error. Please try refreshing the page.${suffix}`,
    );
    expect(threadStartError(new ApiError('network', null), t)).toBe(
      `Network connection error. Please check your internet connection.${suffix}`,
    );
    expect(threadStartError(new ApiError('unexpected', 409, 'Something specific'), t)).toBe(
      `Something specific${suffix}`,
    );
  });

  it("shows a refused message in the server's own words (chat limit, still answering)", () => {
    document.documentElement.lang = 'en';
    const limit =
      "This conversation has reached the assistant's limit of 100 messages. Please start a new conversation.";
    expect(sendError(new ApiError('forbidden', 403, limit), t)).toBe(limit);
    expect(sendError(new ApiError('unexpected', 400, 'Message content cannot be empty'), t)).toBe(
      'Message content cannot be empty',
    );
    expect(sendError(new ApiError('server', 500, null), t)).toBe('Error sending message');
    expect(sendError(new ApiError('network', null), t)).toBe(
      'Network error occurred. Please check your connection and try again.',
    );
  });

  it('says those words in Hebrew on a Hebrew page (a rate limit, a broken thread id)', () => {
    document.documentElement.lang = 'he';
    expect(sendError(new ApiError('tooManyRequests', 429, 'Too many requests. Please try again later.'), t)).toBe(
      'יותר מדי בקשות. אנא נסו שוב מאוחר יותר.',
    );
    expect(sendError(new ApiError('unexpected', 400, 'THREAD_INVALID'), t)).toBe('מזהה השיחה אינו תקין.');
    expect(
      threadStartError(new ApiError('tooManyRequests', 429, 'Too many requests. Please try again later.'), t),
    ).toContain('יותר מדי בקשות.');
  });
});
