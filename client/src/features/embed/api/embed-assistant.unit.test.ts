import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { describeApiFailure, describeInitFailure, EmbedInitError, getEmbedAssistant } from './embed-assistant';

afterEach(() => vi.unstubAllGlobals());

describe('the embed start-up errors (spec part 2 §8)', () => {
  it('names 404, 5xx and network failures', () => {
    expect(describeInitFailure(404, { detail: 'Invalid or expired share link.' })).toEqual({ kind: 'notFound' });
    expect(describeInitFailure(500, { detail: 'boom' })).toEqual({ kind: 'server' });
    expect(describeInitFailure(503, null)).toEqual({ kind: 'server' });
    expect(describeInitFailure(null, null)).toEqual({ kind: 'connection' });
  });

  it('reads a detail object (message or error, and suggestion) or a plain detail', () => {
    expect(
      describeInitFailure(403, { detail: { message: 'Widget disabled', suggestion: 'Ask the owner to enable it.' } }),
    ).toEqual({
      kind: 'detail',
      message: 'Widget disabled',
      suggestion: 'Ask the owner to enable it.',
    });
    expect(describeInitFailure(500, { detail: { error: 'Database unavailable' } })).toEqual({
      kind: 'detail',
      message: 'Database unavailable',
      suggestion: null,
    });
    expect(describeInitFailure(429, { detail: 'Too many requests. Please try again later.' })).toEqual({
      kind: 'detail',
      message: 'Too many requests. Please try again later.',
      suggestion: null,
    });
    expect(describeInitFailure(400, {})).toEqual({ kind: 'unknown' });
  });

  it('reads the API module errors of the thread calls the same way', () => {
    expect(describeApiFailure(new ApiError('network', null))).toEqual({ kind: 'connection' });
    expect(describeApiFailure(new ApiError('forbidden', 403, 'Invalid or expired share link.'))).toEqual({
      kind: 'notFound',
    });
    expect(describeApiFailure(new ApiError('server', 500, 'x'))).toEqual({ kind: 'server' });
    expect(describeApiFailure(new EmbedInitError({ kind: 'noToken' }))).toEqual({ kind: 'noToken' });
    expect(describeApiFailure(new Error('?'))).toEqual({ kind: 'unknown' });
  });

  it('fetches the shared assistant without credentials and keeps the detail object', async () => {
    const fetchMock = vi.fn().mockResolvedValueOnce(
      new Response(
        JSON.stringify({
          id: 3,
          name: 'Bakery',
          description: 'Bread',
          avatar_url: null,
          openai_assistant_id: 'asst_x',
        }),
        { status: 200 },
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(getEmbedAssistant('tok/en')).resolves.toMatchObject({
      id: 3,
      name: 'Bakery',
      openai_assistant_id: 'asst_x',
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/assistants/shared/tok%2Fen');
    expect(init).toMatchObject({ credentials: 'omit', headers: { 'X-Requested-With': 'XMLHttpRequest' } });

    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ detail: { message: 'Paused', suggestion: 'Later' } }), { status: 409 }),
    );
    await expect(getEmbedAssistant('t')).rejects.toMatchObject({
      problem: { kind: 'detail', message: 'Paused', suggestion: 'Later' },
    });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(getEmbedAssistant('t')).rejects.toMatchObject({ problem: { kind: 'connection' } });
  });
});
