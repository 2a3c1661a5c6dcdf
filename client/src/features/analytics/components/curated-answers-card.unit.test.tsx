import type { CuratedAnalytics } from '@kesher/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { UnansweredQuestions } from '@/features/curated-answers/components/unanswered-questions';
import { CuratedAnswersCard } from './curated-answers-card';

const figures = (over: Partial<CuratedAnalytics> = {}): CuratedAnalytics => ({
  period: { days: 7, start_date: '2026-11-17', end_date: '2026-11-23' },
  answers: 11,
  curated_answers: 4,
  curated_share: 36.4,
  unsourced_answers: 2,
  top_questions: [
    {
      qa_id: 'qa_aaaaaaaaaaaaaaaaaaaaaaaa',
      question: 'Do you ship abroad?',
      hits: 4,
      assistant_id: 7,
      assistant_name: 'Shop',
    },
  ],
  unanswered: {
    total: 3,
    questions: 2,
    items: [
      {
        question: 'Do you sell gift cards?',
        times: 2,
        last_asked_at: '2026-11-23T10:00:00.000Z',
        thread_id: 'thread_1',
        assistant_id: 7,
        assistant_name: 'Shop',
      },
      {
        question: 'יש חניה?',
        times: 1,
        last_asked_at: '2026-11-22T10:00:00.000Z',
        thread_id: 'thread_2',
        assistant_id: 9,
        assistant_name: 'Bakery',
      },
    ],
  },
  ...over,
});

/** A stand-in of the server: the curated figures (then without the question once it became a Q&A), and the Q&A POST. */
function serve(first = figures()) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  let current = first;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : null });
      const json = (value: unknown) =>
        new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
      if (init.method === 'POST') {
        current = figures({ unanswered: { total: 1, questions: 1, items: first.unanswered.items.slice(1) } });
        return json({
          qa_id: 'qa_bbbbbbbbbbbbbbbbbbbbbbbb',
          question: 'Do you sell gift cards?',
          answer: 'Yes.',
          hits_30d: 0,
          created_at: '2026-11-23T11:00:00.000Z',
        });
      }
      return json({ status: 'success', data: current });
    }),
  );
  return calls;
}

describe('the analytics page: answers from the Q&A (issue 26 item 4)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the curated figures and the most used Q&A, and turns an unanswered question into a Q&A in one click', async () => {
    const calls = serve();
    renderWithProviders(<CuratedAnswersCard days={7} unansweredList={<UnansweredQuestions days={7} />} />);
    const card = await screen.findByRole('region', { name: 'Answers from your Q&A' });
    expect(await within(card).findByText('36.4%')).toBeInTheDocument();
    expect(within(card).getByText('Do you ship abroad?')).toBeInTheDocument();
    expect(within(card).getByText('4 answers · Shop')).toBeInTheDocument();
    expect(calls[0]?.url).toBe('/api/v1/analytics/curated-answers?days=7');

    const list = await screen.findByRole('region', { name: 'Questions answered with no source' });
    expect(within(list).getByText('2 questions, asked 3 times in all')).toBeInTheDocument();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('strong')?.textContent),
    ).toEqual(['Do you sell gift cards?', 'יש חניה?']);
    fireEvent.click(within(list).getByRole('button', { name: 'Add "Do you sell gift cards?" to Q&A' }));
    // The Q&A form opens with the question written in; the owner writes the answer only.
    expect(within(list).getByLabelText('Question')).toHaveValue('Do you sell gift cards?');
    expect(within(list).getByLabelText('Answer')).toHaveFocus();
    fireEvent.change(within(list).getByLabelText('Answer'), { target: { value: 'Yes, from 100 ILS.' } });
    fireEvent.click(within(list).getByRole('button', { name: 'Add Q&A' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toEqual({
        method: 'POST',
        url: '/api/v1/assistants/7/qa',
        body: { question: 'Do you sell gift cards?', answer: 'Yes, from 100 ILS.', thread_id: 'thread_1' },
      }),
    );
    // The list is asked again and the question is gone.
    await waitFor(() => expect(within(list).queryByText('Do you sell gift cards?')).toBeNull());
    expect(within(list).getByText('יש חניה?')).toBeInTheDocument();
    // Role queries are slow in jsdom: 8 s on the busy two-core machine, past the default 5.
  }, 30_000);

  it('speaks Hebrew, and says when nothing is waiting', async () => {
    serve(
      figures({
        curated_answers: 0,
        curated_share: null,
        top_questions: [],
        unanswered: { total: 0, questions: 0, items: [] },
      }),
    );
    renderWithProviders(<CuratedAnswersCard days={30} unansweredList={<UnansweredQuestions days={30} />} />, {
      language: 'he',
    });
    expect(await screen.findByRole('heading', { name: 'תשובות מהשאלות והתשובות שלכם' })).toBeInTheDocument();
    expect(await screen.findByText('בתקופה הזו אף תשובה לא הגיעה מהשאלות והתשובות שלכם.')).toBeInTheDocument();
    expect(await screen.findByText('בתקופה הזו לא הייתה שאלה של מבקר שנענתה בלי מקור.')).toBeInTheDocument();
    expect(screen.getByText('—')).toBeInTheDocument();
  });
});
