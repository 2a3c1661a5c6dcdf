import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTexts } from '@/lib/texts';
import { renderWithProviders } from '@/test/render';
import type { ChatMessage } from '@/lib/chat-core/chat-messages';
import { chatLocales } from '../locales';
import { MessageItem } from './message-item';

const answer = (id: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  role: 'assistant',
  text: 'Our sourdough is on the menu page.',
  timestamp: 0,
  runId: 'run_1',
  sources: [],
  hasRedirect: true,
  redirectUrl: 'https://bakery.example/buy',
  ...extra,
});

function Item({
  message,
  fresh,
  target = '_blank',
  onAlert = vi.fn(),
}: {
  message: ChatMessage;
  fresh: boolean;
  target?: '_self' | '_blank';
  onAlert?: (text: string) => void;
}) {
  const { t } = useTexts('chat', chatLocales);
  return (
    <ol>
      <MessageItem message={message} fresh={fresh} target={target} onFeedback={vi.fn()} onAlert={onAlert} t={t} />
    </ol>
  );
}

describe('the redirect button', () => {
  afterEach(() => vi.useRealTimers());

  it('shows Visit Link and opens a freshly arrived redirect after 1 s, once', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    vi.useFakeTimers();
    const first = renderWithProviders(<Item message={answer('msg_fresh')} fresh />);
    const link = screen.getByRole('link', { name: /Visit Link/ });
    expect(link).toHaveAttribute('href', 'https://bakery.example/buy');
    expect(link).toHaveAttribute('target', '_blank');
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(open).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(open).toHaveBeenCalledWith('https://bakery.example/buy', '_blank', 'noopener,noreferrer');
    // Shown again (a remount, say): an address already opened is not opened twice.
    first.unmount();
    renderWithProviders(<Item message={answer('msg_fresh')} fresh />);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('never opens one from history', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    vi.useFakeTimers();
    renderWithProviders(<Item message={answer('msg_old')} fresh={false} />);
    expect(screen.getByRole('link', { name: /Visit Link/ })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(open).not.toHaveBeenCalled();
  });

  it('stays in the frame inside the embed', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    vi.useFakeTimers();
    renderWithProviders(<Item message={answer('msg_embed')} fresh target="_self" />);
    expect(screen.getByRole('link', { name: 'Visit Link' })).toHaveAttribute('target', '_self');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(open).toHaveBeenCalledWith('https://bakery.example/buy', '_self', undefined);
  });
});

describe('an answer', () => {
  it('reads in its own direction, links addresses and lists its sources modestly', () => {
    renderWithProviders(
      <Item
        message={answer('msg_src', {
          text: 'See https://bakery.example/menu. Thanks!',
          hasRedirect: false,
          redirectUrl: null,
          sources: [
            { fileId: 'file-1', filename: 'menu.txt', sourceUrl: null },
            { fileId: 'file-2', filename: 'site page', sourceUrl: 'https://bakery.example/about' },
          ],
        })}
        fresh={false}
      />,
    );
    expect(screen.getByText(/See/).closest('.chat-bubble')).toHaveAttribute('dir', 'auto');
    expect(screen.getByRole('link', { name: 'https://bakery.example/menu' })).toHaveAttribute(
      'href',
      'https://bakery.example/menu',
    );
    expect(screen.getByRole('button', { name: 'menu.txt' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'site page' })).toHaveAttribute('href', 'https://bakery.example/about');
    expect(screen.queryByRole('link', { name: /Visit Link/ })).toBeNull();
  });

  it('names its sources as people know them: the page by its address, the file by its name, never an internal name or id (issue 22 item 6)', () => {
    const onAlert = vi.fn();
    renderWithProviders(
      <Item
        onAlert={onAlert}
        message={answer('msg_names', {
          hasRedirect: false,
          redirectUrl: null,
          sources: [
            {
              fileId: 'file-9f2c',
              filename: '127.0.0.1-products-city-bike-c3f920c5.html',
              sourceUrl: 'http://127.0.0.1:4173/products/city-bike',
            },
            { fileId: 'file-77aa', filename: 'price-list.pdf', sourceUrl: null },
          ],
        })}
        fresh={false}
      />,
    );
    const page = screen.getByRole('link', { name: '127.0.0.1/products/city-bike' });
    expect(page).toHaveAttribute('href', 'http://127.0.0.1:4173/products/city-bike');
    const sources = page.closest('.chat-sources')!;
    expect(sources).not.toHaveTextContent('c3f920c5');
    fireEvent.click(screen.getByRole('button', { name: 'price-list.pdf' }));
    expect(onAlert).toHaveBeenCalledWith(
      'Source: price-list.pdf. The original address is not available; the content is in the uploaded file.',
      'info',
    );
    expect(String(onAlert.mock.calls[0]?.[0])).not.toContain('file-77aa');
  });

  it('isolates each line in its own direction: an English line in a Hebrew answer keeps its period on the right (issue 22 item 7)', () => {
    renderWithProviders(
      <Item
        message={answer('msg_bidi', {
          text: 'שעות הפתיחה שלנו:\nOpen Sunday to Thursday, 7:00 to 19:00.\n\nלפרטים: https://bakery.example/hours.',
          hasRedirect: false,
          redirectUrl: null,
        })}
        fresh={false}
      />,
    );
    const bubble = document.querySelector('.chat-bubble')!;
    const lines = [...bubble.querySelectorAll('.bidi-line')];
    expect(lines.map((line) => [line.getAttribute('dir'), line.textContent])).toEqual([
      ['auto', 'שעות הפתיחה שלנו:'],
      ['auto', 'Open Sunday to Thursday, 7:00 to 19:00.'],
      [null, ''],
      ['auto', 'לפרטים: https://bakery.example/hours.'],
    ]);
    expect(screen.getByRole('link', { name: 'https://bakery.example/hours' })).toHaveAttribute('dir', 'ltr');
  });

  it('never shows a redirect command, even one left mid-line (issue 22 item 5)', () => {
    renderWithProviders(
      <Item
        message={answer('msg_cmd', { text: 'You can continue here: [REDIRECT: https://bakery.example/buy]' })}
        fresh={false}
      />,
    );
    expect(document.querySelector('.chat-bubble')).toHaveTextContent(/^You can continue here:$/);
    expect(screen.getByRole('link', { name: /Visit Link/ })).toHaveAttribute('href', 'https://bakery.example/buy');
  });
});
