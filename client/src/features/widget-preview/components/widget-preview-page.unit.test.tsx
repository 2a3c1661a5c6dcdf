import type { AssistantDto } from '@kesher/contracts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { renderWithProviders } from '@/test/render';
import { WidgetPreviewPage } from './widget-preview-page';

const base: AssistantDto = {
  id: 7,
  name: 'Harbor Cafe',
  description: 'Cafe',
  instructions: 'Help',
  chat_limit: 100,
  website_url: null,
  avatar_url: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  user_id: 'u1',
  openai_assistant_id: 'asst_123456789012345678901234',
  share_token: null,
  telegram_integration: null,
  web_crawler: { enabled: false, website_url: null, max_pages: 50, max_depth: 5, delete_orphaned_pages: false },
  payment_processing: { enabled: false, sales_prompt: '' },
};

function renderPage(
  assistant: Partial<AssistantDto> | null,
  options: { error?: unknown; generate?: () => Promise<string> } = {},
) {
  const generate = vi.fn(options.generate ?? (async () => 'new-token'));
  const utils = renderWithProviders(
    <WidgetPreviewPage
      assistantId={7}
      assistant={assistant ? { ...base, ...assistant } : undefined}
      pending={false}
      error={options.error ?? null}
      onRetry={vi.fn()}
      generateShareToken={generate}
    />,
  );
  return { ...utils, generate };
}

const codeText = () => screen.getByLabelText('Embed code for Harbor Cafe').textContent ?? '';

afterEach(() => {
  vi.useRealTimers();
});

describe('Widget Preview (spec part 2 §2, §4)', () => {
  it('says when the assistant does not exist, with a way back to the dashboard', async () => {
    renderPage(null, { error: new ApiError('notFound', 404, 'Assistant not found.') });
    await screen.findByRole('heading', { name: 'Assistant not found' });
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('generates the share token on demand, shows the embed code and copies it ("Copied!" for 2 s)', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { generate } = renderPage({});
    await screen.findByRole('heading', { name: 'Widget Preview' });
    expect(generate).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Show Embed Code' }));
    await screen.findByLabelText('Embed code for Harbor Cafe');
    expect(generate).toHaveBeenCalledTimes(1);
    expect(codeText()).toContain(`<script src="${window.location.origin}/widget.js"`);
    expect(codeText()).toContain('data-share-token="new-token"');
    expect(codeText()).toContain('data-button-color="#2d3748"');
    expect(codeText()).toContain('data-button-size="60px"');

    vi.useFakeTimers();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy Code' })));
    expect(writeText).toHaveBeenCalledWith(codeText());
    screen.getByRole('button', { name: 'Copied!' });
    await act(() => vi.advanceTimersByTimeAsync(1999));
    screen.getByRole('button', { name: 'Copied!' });
    await act(() => vi.advanceTimersByTimeAsync(1));
    screen.getByRole('button', { name: 'Copy Code' });
    vi.useRealTimers();

    fireEvent.click(screen.getByRole('button', { name: 'Hide Embed Code' }));
    expect(screen.queryByLabelText('Embed code for Harbor Cafe')).toBeNull();
  });

  it('uses the existing share token (a new one would end the old link) and reports a failed generation', async () => {
    const existing = renderPage({ share_token: 'kept' });
    fireEvent.click(await screen.findByRole('button', { name: 'Show Embed Code' }));
    expect(codeText()).toContain('data-share-token="kept"');
    expect(existing.generate).not.toHaveBeenCalled();
    existing.unmount();

    renderPage({}, { generate: async () => Promise.reject(new ApiError('server', 500, 'boom')) });
    fireEvent.click(await screen.findByRole('button', { name: 'Show Embed Code' }));
    await screen.findByText('Share token not available');
  });

  it('moves the button with the keyboard (custom position) and a preset turns custom off', async () => {
    renderPage({ share_token: 'tok' });
    const button = await screen.findByRole('button', { name: 'Open chat preview' });
    fireEvent.keyDown(button, { key: 'ArrowLeft' });
    await screen.findByText(/Custom position: \d+ px from the left/);
    fireEvent.click(screen.getByRole('button', { name: 'Show Embed Code' }));
    expect(codeText()).toContain('data-custom-position="true"');
    fireEvent.click(screen.getByRole('radio', { name: 'Top left' }));
    expect(screen.queryByText(/Custom position/)).toBeNull();
    expect(codeText()).not.toContain('data-custom-position');
    expect(codeText()).toContain('data-button-position="top-left"');
    expect(button.style.left).toBe('20px');
    expect(button.style.top).toBe('20px');
    fireEvent.click(screen.getByRole('radio', { name: '70px' }));
    expect(button.style.width).toBe('70px');
  });

  it('switches to the 375×667 phone frame, shows the no-website state and the avatar toggle only with an avatar', async () => {
    const first = renderPage({ share_token: 'tok' });
    await screen.findByText('No Website URL Configured');
    fireEvent.click(screen.getByRole('radio', { name: 'Mobile' }));
    expect(screen.getByTestId('preview-frame')).toHaveClass('wp-mobile');
    expect(screen.queryByLabelText("Use the assistant's avatar on the button")).toBeNull();
    first.unmount();

    renderPage({ share_token: 'tok', avatar_url: 'https://cdn.example/a.png' });
    const toggle = await screen.findByLabelText<HTMLInputElement>("Use the assistant's avatar on the button");
    expect(toggle.checked).toBe(true);
    const button = screen.getByRole('button', { name: 'Open chat preview' });
    expect(button.querySelector('img')).toHaveAttribute('src', 'https://cdn.example/a.png');
    fireEvent.click(toggle);
    expect(button.querySelector('img')).toBeNull();
  });

  it('asks before a real conversation, then opens the small chat panel with the embed page', async () => {
    renderPage({ share_token: 'tok' });
    const button = await screen.findByRole('button', { name: 'Open chat preview' });
    fireEvent.click(button);
    let dialog = await screen.findByRole('dialog', { name: 'Test Real AI Assistant' });
    within(dialog).getByText(/real conversation thread and AI credits/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('iframe')).toBeNull();

    fireEvent.click(button);
    dialog = await screen.findByRole('dialog', { name: 'Test Real AI Assistant' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue to Chat' }));
    const frame = await screen.findByTitle('Chat with Harbor Cafe');
    expect(frame.getAttribute('src')).toBe(`${window.location.origin}/embed/tok`);
    expect(screen.getByRole('button', { name: 'Minimize chat preview', expanded: true })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close chat preview' }));
    expect(screen.queryByTitle('Chat with Harbor Cafe')).toBeNull();
  });

  it('shows the owner website in a sandboxed frame and reports one that never loads', async () => {
    vi.useFakeTimers();
    renderPage({ share_token: 'tok', website_url: 'https://cafe.example/' });
    const site = screen.getByTitle('Your website');
    expect(site).toHaveAttribute('src', 'https://cafe.example/');
    expect(site.getAttribute('sandbox')).not.toContain('allow-top-navigation');
    expect(screen.queryByText('No Website URL Configured')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    screen.getByText('Failed to load website');
    expect(screen.queryByTitle('Your website')).toBeNull(); // the example page instead
  });

  it('passes the optional test session token to the embed page', async () => {
    renderPage({ share_token: 'tok' });
    fireEvent.change(await screen.findByLabelText('Session token (optional, for testing)'), {
      target: { value: 'my-test-session-0001' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open chat preview' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Continue to Chat' }));
    expect((await screen.findByTitle('Chat with Harbor Cafe')).getAttribute('src')).toBe(
      `${window.location.origin}/embed/tok?sessionToken=my-test-session-0001`,
    );
  });
});
