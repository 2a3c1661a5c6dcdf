import type { ApiHarness } from './api-harness.js';

/**
 * A new owner and an assistant of theirs, made through the API as the app does: the owner's session, the
 * header that carries it, and the assistant as POST /assistants/ answered (its ids and profile).
 */
export async function ownerAssistant(
  h: ApiHarness,
  profile: { name: string; description?: string; instructions?: string },
) {
  const owner = await h.owner();
  const auth = { authorization: owner.authorization };
  const { name, description = name, instructions = 'Answer.' } = profile;
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/v1/assistants/',
    headers: auth,
    payload: { name, description, instructions },
  });
  // Untyped, as inject answers it: each test reads the fields it needs.
  return { owner, auth, assistant: response.json() };
}
