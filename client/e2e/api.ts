/**
 * The tests' way to set things up through the real API (an owner, assistants, files, share links) before
 * the browser takes over: errors throw with the status and body, so a broken setup says what broke.
 */
export function apiClient(baseUrl: string, token: () => string | undefined) {
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const headers = new Headers(init.headers);
    const bearer = token();
    if (bearer) headers.set('authorization', `Bearer ${bearer}`);
    if (init.body && typeof init.body === 'string' && !headers.has('content-type'))
      headers.set('content-type', 'application/json');
    const response = await fetch(`${baseUrl}/api/v1${path}`, { ...init, headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
  async function upload(assistantId: number, name: string, content: string) {
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/plain' }), name);
    await call(`/assistants/${assistantId}/upload_file`, { method: 'POST', body: form });
  }
  /**
   * A paid plan, bought the way an owner buys it on `make start`: checkout, then the test payment page's
   * form with the success card (channels and Drive need one).
   */
  async function subscribeWithTestCard(tier: 'pro' | 'enterprise' = 'pro') {
    const checkout = await call<{ url: string }>('/subscriptions/checkout', {
      method: 'POST',
      body: JSON.stringify({ tier, billing_period: 'monthly' }),
    });
    const params = new URL(checkout.url, baseUrl).searchParams;
    const form = new URLSearchParams({
      ...Object.fromEntries(params),
      card_number: '4580458045804580',
      card_holder: 'Dana Levi',
      expiry: '12/30',
      cvv: '123',
    });
    const paid = await call<{ status: string; message: string }>('/subscriptions/tranzila-mock', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    if (paid.status !== 'success') throw new Error(`test payment refused: ${paid.message}`);
  }
  return { call, upload, subscribeWithTestCard };
}
