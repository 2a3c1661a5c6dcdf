import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBundleTextSource, TextSourceProvider } from '@/lib/texts';
import { SharedChatPage } from './components/shared-chat-page';
import { sharedAssistantStore } from './shared-assistant-store';
import { sessionTokenFromQuery, visitorSessionStore } from './visitor-session-store';

const token64 = 'a'.repeat(64);
const external = `asst_${'b'.repeat(24)}`;

function renderVisitor(ui: React.ReactNode, language: 'en' | 'he' = 'en') {
  return render(<TextSourceProvider value={createBundleTextSource(language)}>{ui}</TextSourceProvider>);
}

describe('the visitor session', () => {
  it('takes a session token from the query as sessionToken, token or github_token', () => {
    expect(sessionTokenFromQuery(`?sessionToken=${token64}`)).toBe(token64);
    expect(sessionTokenFromQuery(`?token=${token64}`)).toBe(token64);
    expect(sessionTokenFromQuery(`?github_token=${token64}&x=1`)).toBe(token64);
    expect(sessionTokenFromQuery('?token=short')).toBeNull();
    expect(sessionTokenFromQuery('')).toBeNull();
  });

  it('keeps one session token per assistant', () => {
    visitorSessionStore.set('5', token64);
    expect(visitorSessionStore.get('5')).toBe(token64);
    expect(visitorSessionStore.get('6')).toBeNull();
  });

  it('remembers every assistant reached through a share link', () => {
    sharedAssistantStore.save({
      id: 5,
      name: 'Bakery',
      description: 'Bread',
      openai_assistant_id: external,
      shareToken: 'tok-5',
    });
    sharedAssistantStore.save({
      id: 6,
      name: 'Garage',
      description: '',
      openai_assistant_id: null,
      shareToken: 'tok-6',
    });
    expect(sharedAssistantStore.load('5')).toEqual({
      id: 5,
      name: 'Bakery',
      description: 'Bread',
      openai_assistant_id: external,
      shareToken: 'tok-5',
    });
    expect(sharedAssistantStore.load('6')?.shareToken).toBe('tok-6');
    expect(sharedAssistantStore.load('7')).toBeNull();
  });
});

describe('SharedChatPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("resolves the link, keeps the share token and the assistant's external id, and goes on keeping the query", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              id: 5,
              name: 'Bakery',
              description: 'Bread',
              avatar_url: null,
              openai_assistant_id: external,
            }),
            { status: 200 },
          ),
      ),
    );
    const navigate = vi.fn();
    renderVisitor(<SharedChatPage shareToken="tok-5" search={`?sessionToken=${token64}`} navigate={navigate} />);
    expect(screen.getByText('Loading assistant...')).toBeInTheDocument();
    await waitFor(() =>
      expect(navigate).toHaveBeenCalledWith(`/public-chat/5?sessionToken=${token64}`, { replace: true }),
    );
    expect(sharedAssistantStore.load('5')).toMatchObject({
      name: 'Bakery',
      openai_assistant_id: external,
      shareToken: 'tok-5',
    });
  });

  it("says 'Invalid or expired share link.' for an unknown link", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ detail: 'Invalid or expired share link.' }), { status: 404 })),
    );
    renderVisitor(<SharedChatPage shareToken="nope" search="" navigate={vi.fn()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid or expired share link.');
  });

  it("says 'Failed to start chat.' when the link cannot be resolved now, in Hebrew too", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 503 })),
    );
    renderVisitor(<SharedChatPage shareToken="tok" search="" navigate={vi.fn()} />, 'he');
    expect(await screen.findByRole('alert')).toHaveTextContent('לא ניתן להתחיל את השיחה.');
    expect(screen.getByRole('button', { name: 'נסו שוב' })).toBeInTheDocument();
  });
});
