import '../locales';
import type { AssistantDto } from '@kesher/contracts';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ShareDialog } from './share-dialog';

const assistant = { id: 4, name: 'Bakery helper' } as AssistantDto;

describe('ShareDialog', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('generates the URL, copies it, and shows Copied! for 2 seconds', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ share_url: '/shared-chat/tok123', share_token: 'tok123' }), { status: 200 })));
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ShareDialog assistant={assistant} onClose={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Generate Share Options' }));
    const url = await screen.findByLabelText<HTMLInputElement>('Share URL');
    expect(url.value).toBe(`${window.location.origin}/shared-chat/tok123`);
    vi.useFakeTimers();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy' })));
    expect(writeText).toHaveBeenCalledWith(url.value);
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });
});
