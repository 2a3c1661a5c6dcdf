import type { Qa } from '@kesher/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ManageFilesModal } from '@/features/files/components/manage-files-modal';

const stored: Qa[] = [
  {
    qa_id: 'qa_aaaaaaaaaaaaaaaaaaaaaaaa',
    question: 'כמה עולה תספורת?',
    answer: '80 ₪',
    hits_30d: 3,
    created_at: '2026-11-01T10:00:00.000Z',
  },
];

/** A stand-in of the Q&A routes: the list, and the calls the tab makes, recorded. */
function stubQaApi() {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : null });
      const json = (value: unknown) =>
        new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
      if (url.endsWith('/files')) return json([]);
      if (url.startsWith('/api/v1/analytics/curated-answers'))
        return json({
          status: 'success',
          data: {
            period: { days: 30, start_date: '2026-10-03', end_date: '2026-11-01' },
            answers: 5,
            curated_answers: 3,
            curated_share: 60,
            unsourced_answers: 1,
            top_questions: [],
            unanswered: {
              total: 1,
              questions: 1,
              items: [
                {
                  question: 'יש חניה?',
                  times: 1,
                  last_asked_at: '2026-11-01T09:00:00.000Z',
                  thread_id: 'thread_9',
                  assistant_id: 7,
                  assistant_name: 'Salon',
                },
              ],
            },
          },
        });
      if (init.method === 'POST')
        return json({
          qa_id: 'qa_bbbbbbbbbbbbbbbbbbbbbbbb',
          question: 'q',
          answer: 'a',
          hits_30d: 0,
          created_at: '2026-11-01T10:00:00.000Z',
        });
      return json(stored);
    }),
  );
  return calls;
}

// The tab renders the whole Manage Files dialog: on the busy two-core machine its role queries took over 5 s.
describe('Manage Files: the Q&A tab (issue 26)', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the Q&A with their hits, in Hebrew, and adds one', async () => {
    const calls = stubQaApi();
    renderWithProviders(<ManageFilesModal assistant={{ id: 7, name: 'Salon' }} onClose={vi.fn()} />, {
      language: 'he',
    });
    fireEvent.click(screen.getByRole('tab', { name: 'שאלות ותשובות' }));
    expect(await screen.findByText('כמה עולה תספורת?')).toBeInTheDocument();
    expect(screen.getByText('3 תשובות ב-30 הימים האחרונים')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'הוספת שאלה ותשובה' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('נא לכתוב גם את השאלה וגם את התשובה.');
    fireEvent.change(screen.getByLabelText('שאלה'), { target: { value: 'Are you open on Saturday?' } });
    fireEvent.change(screen.getByLabelText('תשובה'), { target: { value: 'No.' } });
    fireEvent.click(screen.getByRole('button', { name: 'הוספת שאלה ותשובה' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toMatchObject({
        url: expect.stringContaining('/assistants/7/qa'),
        body: { question: 'Are you open on Saturday?', answer: 'No.' },
      }),
    );
  });

  it("lists this assistant's questions answered with no source, and one click starts a Q&A from one", async () => {
    const calls = stubQaApi();
    renderWithProviders(<ManageFilesModal assistant={{ id: 7, name: 'Salon' }} onClose={vi.fn()} />, {
      language: 'he',
    });
    fireEvent.click(screen.getByRole('tab', { name: 'שאלות ותשובות' }));
    expect(await screen.findByText('יש חניה?')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/v1/analytics/curated-answers?days=30&assistant_id=7')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'הוספת "יש חניה?" לשאלות ותשובות' }));
    const question = screen.getAllByLabelText('שאלה').find((input) => (input as HTMLInputElement).value === 'יש חניה?');
    expect(question).toBeDefined();
  }, 30_000);

  it('searches in English', async () => {
    stubQaApi();
    renderWithProviders(<ManageFilesModal assistant={{ id: 7, name: 'Salon' }} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('tab', { name: 'Q&A' }));
    await screen.findByText('כמה עולה תספורת?');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search questions and answers' }), {
      target: { value: 'parking' },
    });
    expect(screen.getByText('No question or answer matches your search.')).toBeInTheDocument();
  });
});
