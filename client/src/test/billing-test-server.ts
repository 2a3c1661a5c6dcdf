import { plans, type SubscriptionStatus } from '@kesher/contracts';
import { vi } from 'vitest';

/** The billing component tests' stand-in for the API: answers by method and path, records every call. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const catalogue = () => [plans.FREE, plans.PRO, plans.ENTERPRISE];

export const freeStatus = (): SubscriptionStatus => ({
  tier: 'FREE',
  status: 'active',
  cancel_at_period_end: false,
  current_period_start: null,
  current_period_end: null,
  trial_end: null,
  limits: plans.FREE.limits,
  billing_period: null,
  provider: null,
});

export const proStatus = (over: Partial<SubscriptionStatus> = {}): SubscriptionStatus => ({
  tier: 'PRO',
  status: 'active',
  cancel_at_period_end: false,
  current_period_start: '2026-11-23T10:00:00.000Z',
  current_period_end: '2026-12-23T10:00:00.000Z',
  trial_end: null,
  limits: plans.PRO.limits,
  billing_period: 'monthly',
  provider: 'test',
  ...over,
});

export interface Call {
  method: string;
  url: string;
  body: string | null;
  contentType: string | null;
}

type Handler = (call: Call) => Response | Promise<Response>;

export function serve(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const body = init.body === undefined || init.body === null ? null : String(init.body);
    const request = new Request(`http://localhost${url}`, init);
    const call = { method: init.method ?? 'GET', url, body, contentType: request.headers.get('content-type') };
    calls.push(call);
    const path = url.split('?')[0]!;
    const handler = routes[`${call.method} ${path}`];
    return handler ? handler(call) : json(404, { detail: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}
