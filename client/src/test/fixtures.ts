import type { AssistantDto } from '@kesher/contracts';
import { vi } from 'vitest';

/** An assistant as GET /assistants/ lists it, with the fields a test cares about overridden. */
export const sampleAssistant = (id: number, name: string, overrides: Partial<AssistantDto> = {}): AssistantDto => ({
  id,
  name,
  description: 'Answers about the shop.',
  instructions: 'Be kind.',
  chat_limit: 100,
  website_url: null,
  avatar_url: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  user_id: 'u1',
  openai_assistant_id: 'asst_abcdefghijklmnopqrstuvwx',
  share_token: null,
  telegram_integration: null,
  web_crawler: { enabled: false, website_url: null, max_pages: 50, max_depth: 5, delete_orphaned_pages: false },
  payment_processing: { enabled: false, sales_prompt: '' },
  ...overrides,
});

export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The server as a test says it answers: `"METHOD /path"` (without /api/v1) → a handler of the JSON body.
 * Unknown calls answer 404; every call is recorded with its body, for assertions about what was sent.
 */
export function stubApi(
  routes: Record<string, (body: Record<string, unknown>) => Response | Promise<Response>>,
  notFound: () => Response = () => jsonResponse({ detail: 'Not Found' }, 404),
) {
  const calls: { call: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const call = `${init.method} ${url.replace('/api/v1', '')}`;
      const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      calls.push({ call, body });
      const handler = routes[call];
      return handler ? handler(body) : notFound();
    }),
  );
  return calls;
}
