import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useTexts } from '@/lib/texts';
import { renderWithProviders } from '@/test/render';
import { chatLocales } from '../locales';
import { ChatInput } from './chat-input';

function Harness({ initial = '', busy = false, onSend }: { initial?: string; busy?: boolean; onSend: () => void }) {
  const { t } = useTexts('chat', chatLocales);
  const [value, setValue] = useState(initial);
  return <ChatInput value={value} onChange={setValue} onSend={onSend} busy={busy} sending={false} t={t} />;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('ChatInput', () => {
  it('shows live word and token counters with their warning and error levels', () => {
    renderWithProviders(<Harness onSend={vi.fn()} />);
    const box = screen.getByLabelText('Message');
    expect(screen.getByText('0/100 words')).toBeInTheDocument();
    expect(screen.getByText('~0/400 tokens')).toBeInTheDocument();

    fireEvent.change(box, { target: { value: words(81) } });
    expect(screen.getByText('81/100 words')).toHaveClass('counter-warn');
    fireEvent.change(box, { target: { value: words(101) } });
    expect(screen.getByText('101/100 words')).toHaveClass('counter-over');
    expect(
      screen.getByText('Message exceeds word limit. Maximum 100 words allowed, but message contains 101 words.'),
    ).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(box, { target: { value: 'x'.repeat(1284) } });
    expect(screen.getByText('~321/400 tokens')).toHaveClass('counter-warn');
    fireEvent.change(box, { target: { value: 'x'.repeat(1604) } });
    expect(screen.getByText('~401/400 tokens')).toHaveClass('counter-over');
    expect(
      screen.getByText(
        'Message exceeds token limit. Maximum 400 tokens allowed, but message contains approximately 401 tokens.',
      ),
    ).toBeInTheDocument();
  });

  it('disables Send when empty, busy or invalid', () => {
    const { unmount } = renderWithProviders(<Harness onSend={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'hello' } });
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: words(101) } });
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    unmount();
    renderWithProviders(<Harness initial="hello" busy onSend={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('sends on Enter; Shift+Enter is a new line', () => {
    const onSend = vi.fn();
    renderWithProviders(<Harness initial="hello" onSend={onSend} />);
    const box = screen.getByLabelText('Message');
    expect(fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })).toBe(true); // not prevented: the newline goes in
    expect(onSend).not.toHaveBeenCalled();
    expect(fireEvent.keyDown(box, { key: 'Enter' })).toBe(false);
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('speaks Hebrew', () => {
    renderWithProviders(<Harness onSend={vi.fn()} />, { language: 'he' });
    expect(screen.getByLabelText('הודעה')).toHaveAttribute('placeholder', 'כתבו את ההודעה שלכם...');
    expect(screen.getByText('0/100 מילים')).toBeInTheDocument();
    expect(screen.getByText('~0/400 טוקנים')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'שליחה' })).toBeDisabled();
  });
});
