import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api, onUnauthorized } from './api-client';
import { ApiError, errorMessage } from './api-error';
import { en } from '@/locales/en';

const t = (key: string) => {
  const [ns, name] = key.split(':') as ['errors', keyof typeof en.errors];
  return ns === 'errors' ? en.errors[name] : key;
};

function respond(status: number, body: unknown) {
  return vi.fn(
    async () =>
      new Response(body === undefined ? '' : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
  );
}

describe('the API module', () => {
  beforeEach(() => {
    localStorage.setItem('firebaseToken', 'a-valid-session-token');
    document.documentElement.lang = 'en';
  });
  afterEach(() => vi.unstubAllGlobals());

  it('calls /api/v1 with the XMLHttpRequest marker, the bearer token and no cookies', async () => {
    const fetchMock = respond(200, { ok: true });
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/assistants/', z.object({ ok: z.boolean() }));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/assistants/');
    expect(init.headers).toMatchObject({
      'X-Requested-With': 'XMLHttpRequest',
      Authorization: 'Bearer a-valid-session-token',
    });
    expect(init.credentials).toBe('omit');
  });

  it('drops a stored token of 10 characters or fewer instead of sending it', async () => {
    localStorage.setItem('firebaseToken', 'short');
    const fetchMock = respond(200, {});
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/x', z.object({}));
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(localStorage.getItem('firebaseToken')).toBeNull();
  });

  it('cleans every string field of an outgoing body', async () => {
    const fetchMock = respond(200, null);
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/assistants/', null, {
      body: {
        name: '  Shop <script>alert(1)</script> ',
        nested: { link: 'javascript:go()', n: 3 },
        list: ['<img onerror=x>'],
      },
    });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({
      name: 'Shop',
      nested: { link: 'go()', n: 3 },
      list: ['<img x>'],
    });
  });

  it('refuses absolute URLs that are not http(s)', async () => {
    vi.stubGlobal('fetch', respond(200, {}));
    await expect(api.get('ftp://example.com/x', z.object({}))).rejects.toMatchObject({
      code: 'invalidUrl',
      detail: 'Invalid URL detected',
    });
  });

  it.each([
    [403, "Access denied. You don't have permission to perform this action."],
    [404, 'Resource not found.'],
    [429, 'Too many requests. Please try again later.'],
    [500, 'Server error occurred. Please try again later.'],
    [503, 'Server error occurred. Please try again later.'],
  ])('maps %i to the catalogue text', async (status, text) => {
    vi.stubGlobal('fetch', respond(status, { detail: 'internal words' }));
    const error = await api.get('/x', z.object({})).catch((e: unknown) => e);
    expect(errorMessage(error, t)).toBe(text);
  });

  it('shows a 403 that is a catalogue text as said: a plan limit says which limit and how to lift it', async () => {
    const limit =
      "You have reached your plan's limit of 1 assistant. Delete an assistant or upgrade the plan to create another.";
    vi.stubGlobal('fetch', respond(403, { detail: limit }));
    expect(errorMessage(await api.post('/assistants/', null, { body: {} }).catch((e: unknown) => e), t)).toBe(limit);
    document.documentElement.lang = 'he';
    expect(errorMessage(await api.post('/assistants/', null, { body: {} }).catch((e: unknown) => e), t)).toMatch(
      /^הגעתם למגבלת/,
    );
    document.documentElement.lang = 'en';
  });

  it('reports a network failure with the catalogue text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await api.get('/x', z.object({})).catch((e: unknown) => e);
    expect(errorMessage(error, t)).toBe('Network error. Please check your connection and try again.');
  });

  it('shows the server detail for other refusals, joining validation messages with ". "', async () => {
    vi.stubGlobal(
      'fetch',
      respond(422, {
        detail: [
          { loc: ['body', 'name'], msg: 'Assistant name is required', type: 'x' },
          { loc: [], msg: 'Please fill in all required fields', type: 'y' },
        ],
      }),
    );
    const error = await api.post('/assistants/', null, { body: {} }).catch((e: unknown) => e);
    expect(errorMessage(error, t)).toBe('Assistant name is required. Please fill in all required fields');
    vi.stubGlobal('fetch', respond(418, undefined));
    expect(errorMessage(await api.get('/x', z.object({})).catch((e: unknown) => e), t)).toBe(
      'An unexpected error occurred. Please try again.',
    );
  });

  it('shows what the server said in Hebrew on a Hebrew page, item by item', async () => {
    document.documentElement.lang = 'he';
    vi.stubGlobal(
      'fetch',
      respond(422, {
        detail: [
          { loc: ['body', 'name'], msg: 'Assistant name is required', type: 'x' },
          { loc: [], msg: 'Please fill in all required fields', type: 'y' },
        ],
      }),
    );
    const error = await api.post('/assistants/', null, { body: {} }).catch((e: unknown) => e);
    expect(errorMessage(error, t)).toBe('חובה להזין שם לעוזר. אנא מלאו את כל שדות החובה');
    vi.stubGlobal('fetch', respond(409, { detail: 'Words the client has never seen.' }));
    expect(errorMessage(await api.get('/x', z.object({})).catch((e: unknown) => e), t)).toBe(
      'Words the client has never seen.',
    );
  });

  it('translates by the code the server sent, so a reworded English detail still shows its Hebrew', async () => {
    document.documentElement.lang = 'he';
    vi.stubGlobal(
      'fetch',
      respond(409, { detail: 'The assistant is busy with your last message, hold on.', code: 'chat.runActive' }),
    );
    expect(errorMessage(await api.get('/x', z.object({})).catch((e: unknown) => e), t)).toBe(
      'העוזר עדיין עונה על ההודעה הקודמת. אנא המתינו לתשובה.',
    );
    vi.stubGlobal(
      'fetch',
      respond(403, {
        detail: 'Your plan allows 3 assistants; that is all.',
        code: 'common.assistantLimitReached',
        args: ['3'],
      }),
    );
    expect(errorMessage(await api.post('/assistants/', null, { body: {} }).catch((e: unknown) => e), t)).toMatch(
      /^הגעתם למגבלת התוכנית שלכם: 3 עוזרים/,
    );
    const items = [
      { loc: ['body', 'name'], msg: 'Give the assistant a name', type: 'x', code: 'common.assistantNameRequired' },
      { loc: [], msg: 'Please fill in all required fields', type: 'y' },
    ];
    vi.stubGlobal('fetch', respond(422, { detail: items }));
    expect(errorMessage(await api.post('/assistants/', null, { body: {} }).catch((e: unknown) => e), t)).toBe(
      'חובה להזין שם לעוזר. אנא מלאו את כל שדות החובה',
    );
    document.documentElement.lang = 'en';
    expect(errorMessage(await api.post('/assistants/', null, { body: {} }).catch((e: unknown) => e), t)).toBe(
      'Give the assistant a name. Please fill in all required fields',
    );
  });

  it('on 401 clears the stored tokens and tells the app', async () => {
    localStorage.setItem('currentUserUid', 'u1');
    vi.stubGlobal('fetch', respond(401, { detail: 'Authentication required. Please log in again.' }));
    const listener = vi.fn();
    const off = onUnauthorized(listener);
    const error = await api.get('/auth/me', z.object({})).catch((e: unknown) => e);
    off();
    expect(error).toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenCalledOnce();
    expect(localStorage.getItem('firebaseToken')).toBeNull();
    expect(localStorage.getItem('currentUserUid')).toBeNull();
  });

  it('fails a change at once while offline, with a clear message', async () => {
    const fetchMock = respond(200, {});
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const error = await api.post('/assistants/', null, { body: {} }).catch((e: unknown) => e);
    expect(errorMessage(error, t)).toBe("You are offline. This change can't be saved until you reconnect.");
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('the request timeout', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('defaults to 60 s and turns an expired request into the timeout error', async () => {
    const { DEFAULT_TIMEOUT_MS } = await import('./api-client');
    expect(DEFAULT_TIMEOUT_MS).toBe(60_000);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_, reject) =>
            init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    await expect(api.get('/slow', z.object({}), { timeoutMs: 5 })).rejects.toMatchObject({ code: 'timeout' });
  });
});
