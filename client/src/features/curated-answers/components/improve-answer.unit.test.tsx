import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import ImproveAnswer from './improve-answer';

const text = (value: string) => [{ type: 'text', text: { value, annotations: [] } }];
const messages = [
  { id: 'msg_q', role: 'user', content: text('כמה עולה תספורת?'), created_at: 1, run_id: null, sources: [] },
  { id: 'msg_a', role: 'assistant', content: text('לא מצאתי תשובה'), created_at: 2, run_id: 'run_1', sources: [] },
];

describe('Improve this answer (issue 26)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("prefills the visitor's question, and saves the owner's answer naming the conversation", async () => {
    const posted: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const json = (value: unknown) =>
          new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
        if (url.includes('/messages')) return json({ data: messages });
        posted.push({ url, body: JSON.parse(String(init.body)) });
        return json({
          qa_id: 'qa_bbbbbbbbbbbbbbbbbbbbbbbb',
          question: 'q',
          answer: 'a',
          hits_30d: 0,
          created_at: '2026-11-01T10:00:00.000Z',
        });
      }),
    );
    renderWithProviders(<ImproveAnswer assistantId={7} threadId="thread_1" messageId="msg_a" />, { language: 'he' });
    fireEvent.click(screen.getByRole('button', { name: 'שיפור התשובה' }));
    await waitFor(() => expect(screen.getByLabelText('שאלה')).toHaveValue('כמה עולה תספורת?'));
    fireEvent.change(screen.getByLabelText('התשובה הנכונה'), { target: { value: 'תספורת עולה 80 ₪.' } });
    fireEvent.click(screen.getByRole('button', { name: 'שמירה' }));
    await waitFor(() =>
      expect(posted).toEqual([
        {
          url: expect.stringContaining('/assistants/7/qa'),
          body: { question: 'כמה עולה תספורת?', answer: 'תספורת עולה 80 ₪.', thread_id: 'thread_1' },
        },
      ]),
    );
  });
});
