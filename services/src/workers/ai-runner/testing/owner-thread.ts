import type { ApiHarness } from '../../../testing/api-harness.js';
import { ownerAssistant } from '../../../testing/owner-assistant.js';

/** A new owner with an assistant named `name` and a thread on it, made through the API as the app does. */
export async function ownerThread(h: ApiHarness, name: string) {
  const made = await ownerAssistant(h, { name });
  const { auth } = made;
  const assistant = made.assistant as { assistant_id: string; openai_assistant_id: string };
  const threadId = (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/threads/',
      headers: auth,
      payload: { assistant_id: assistant.assistant_id },
    })
  ).json().thread_id as string;
  return { auth, assistant, threadId };
}

/** The owner asks `content` on the thread and starts a run for it; the run's id. */
export async function askOnThread(
  h: ApiHarness,
  { auth, assistant, threadId }: Awaited<ReturnType<typeof ownerThread>>,
  content: string,
) {
  await h.app.inject({
    method: 'POST',
    url: `/api/v1/threads/${threadId}/messages`,
    headers: auth,
    payload: { content },
  });
  return (
    await h.app.inject({
      method: 'POST',
      url: `/api/v1/threads/${threadId}/runs`,
      headers: auth,
      payload: { assistant_id: assistant.openai_assistant_id },
    })
  ).json().run_id as string;
}
