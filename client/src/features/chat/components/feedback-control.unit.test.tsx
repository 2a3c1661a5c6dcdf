import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { useTexts } from '@/lib/texts';
import { renderWithProviders } from '@/test/render';
import { chatLocales } from '../locales';
import { FeedbackControl } from './feedback-control';

function Harness({
  onSend,
  onError = vi.fn(),
}: {
  onSend: (rating: 'like' | 'dislike', comment: string | null) => Promise<void>;
  onError?: (text: string) => void;
}) {
  const { t } = useTexts('chat', chatLocales);
  return <FeedbackControl messageId="msg_1" onSend={onSend} onError={onError} t={t} />;
}

describe('FeedbackControl', () => {
  afterEach(() => vi.useRealTimers());

  it('sends a like at once, thanks for 2 s and hides the prompt, remembered after a remount', async () => {
    const onSend = vi.fn(async () => undefined);
    const first = renderWithProviders(<Harness onSend={onSend} />);
    expect(screen.getByText('Was this answer helpful?')).toBeInTheDocument();
    vi.useFakeTimers();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Helpful' })));
    expect(onSend).toHaveBeenCalledWith('like', null);
    expect(screen.getByText('Thank you for your feedback!')).toBeInTheDocument();
    expect(screen.queryByText('Was this answer helpful?')).toBeNull();
    expect(screen.getByRole('button', { name: 'Helpful' })).toHaveAttribute('aria-pressed', 'true');
    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(screen.getByText('Thank you for your feedback!')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByText('Thank you for your feedback!')).toBeNull();

    first.unmount();
    renderWithProviders(<Harness onSend={onSend} />);
    expect(screen.queryByText('Was this answer helpful?')).toBeNull();
    expect(screen.getByRole('button', { name: 'Helpful' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('asks for an optional comment of at most 500 characters on dislike', async () => {
    const onSend = vi.fn(async () => undefined);
    renderWithProviders(<Harness onSend={onSend} />);
    fireEvent.click(screen.getByRole('button', { name: 'Not helpful' }));
    expect(onSend).not.toHaveBeenCalled();
    const comment = screen.getByLabelText('What could be better? (optional)');
    expect(comment).toHaveAttribute('maxLength', '500');
    fireEvent.change(comment, { target: { value: 'x'.repeat(600) } });
    expect(screen.getByText('500/500')).toBeInTheDocument();
    fireEvent.change(comment, { target: { value: '  Too short an answer  ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send feedback' })));
    expect(onSend).toHaveBeenCalledWith('dislike', 'Too short an answer');
    expect(screen.getByText('Thank you for your feedback!')).toBeInTheDocument();
    expect(screen.queryByLabelText('What could be better? (optional)')).toBeNull();
  });

  it("alerts 'Error: ' with the server's detail when sending fails", async () => {
    const onError = vi.fn();
    renderWithProviders(
      <Harness
        onSend={vi.fn(async () =>
          Promise.reject(new ApiError('unexpected', 422, 'Comment is too long (max 500 characters)')),
        )}
        onError={onError}
      />,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Helpful' })));
    expect(onError).toHaveBeenCalledWith('Error: Comment is too long (max 500 characters)');
    expect(screen.getByText('Was this answer helpful?')).toBeInTheDocument();
  });
});
