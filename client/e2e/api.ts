/**
 * The tests' way to set things up through the real API (an owner, assistants, files, share links) before
 * the browser takes over: errors throw with the status and body, so a broken setup says what broke.
 */
export function apiClient(baseUrl: string, token: () => string | undefined) {
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const headers = new Headers(init.headers);
    const bearer = token();
    if (bearer) headers.set('authorization', `Bearer ${bearer}`);
    if (init.body && typeof init.body === 'string') headers.set('content-type', 'application/json');
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
  return { call, upload };
}
