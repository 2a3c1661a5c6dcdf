import type { Dashboard } from '@kesher/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { AnalyticsPage } from './analytics-page';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown) => json(200, { status: 'success', data });

const stats = { samples: 0, avg_ms: null, min_ms: null, max_ms: null, p50_ms: null, p95_ms: null };
const dashboard = (over: Partial<Dashboard['overview']> = {}): Dashboard => ({
  period: { days: 7, start_date: '2026-11-17', end_date: '2026-11-23' },
  overview: {
    total_conversations: 3,
    total_queries: 12,
    total_answers: 11,
    tracked_queries: 0,
    users: 4,
    new_users: 2,
    active_assistants: 1,
    total_assistants: 1,
    success_rate: 91.7,
    failed_runs: 1,
    expired_runs: 0,
    ...over,
  },
  response_time: {
    samples: 11,
    current_ms: 740,
    avg_ms: 740,
    min_ms: 120,
    max_ms: 1900,
    p50_ms: 600,
    p90_ms: 1500,
    p95_ms: 1800,
    p99_ms: 1900,
    first_token: stats,
  },
  feedback: { positive: 3, negative: 1, total: 4, satisfaction_rate: 75 },
  channels: [],
  languages: { he: 6, en: 6, other: 0 },
  trends: {
    daily_queries: [
      { date: '2026-11-21', queries: 2 },
      { date: '2026-11-22', queries: 4 },
      { date: '2026-11-23', queries: 6 },
    ],
    daily_response_times: [
      {
        date: '2026-11-21',
        samples: 0,
        avg_response_time: null,
        min_response_time: null,
        max_response_time: null,
        p95_response_time: null,
      },
      {
        date: '2026-11-22',
        samples: 4,
        avg_response_time: 300,
        min_response_time: 100,
        max_response_time: 500,
        p95_response_time: 500,
      },
      {
        date: '2026-11-23',
        samples: 7,
        avg_response_time: 900,
        min_response_time: 200,
        max_response_time: 1900,
        p95_response_time: 1800,
      },
    ],
    daily_conversations: [],
  },
});
const emptyDashboard = (): Dashboard => ({
  ...dashboard({
    total_conversations: 0,
    total_queries: 0,
    total_answers: 0,
    users: 0,
    success_rate: null,
    failed_runs: 0,
  }),
  response_time: { ...dashboard().response_time, samples: 0, current_ms: null },
  feedback: { positive: 0, negative: 0, total: 0, satisfaction_rate: null },
});
const figure = (used: number, limit: number) => ({
  used,
  limit,
  remaining: limit - used,
  percentage: (used / limit) * 100,
  state: 'ok' as const,
});
const limits = (messages = 16_000) => ({
  limits_status: {
    tier: 'FREE',
    period_start: '2026-11-01T00:00:00Z',
    period_end: '2026-12-01T00:00:00Z',
    within_limits: true,
    limits_summary: {
      chat: { total_messages: figure(messages, 20_000) },
      assistants: { total: figure(1, 1) },
      storage: { used_mb: figure(20, 5_120) },
    },
    warnings: [],
    recommendations: [],
  },
  quick_stats: {
    total_assistants: 1,
    total_conversations: 3,
    storage_used_mb: 20,
    messages_this_month: messages,
    violations_last_7_days: 0,
  },
  violations_by_type: [],
});
const keywordList = (source: 'customer' | 'assistant', words: string[]) => ({
  source,
  days: 7,
  keywords: words.map((keyword, i) => ({ keyword, count: 10 - i, percentage: 10 })),
  total_mentions: 100,
});
const keywords = (
  customer = ['shipping', 'price', 'hours', 'returns', 'sizes', 'colours'],
  assistant = ['delivery', 'days'],
) => ({
  days: 7,
  customer_keywords: keywordList('customer', customer),
  assistant_keywords: keywordList('assistant', assistant),
});
const longUrl = `https://shop.example.com/products/${'very-long-slug-'.repeat(6)}`;
const sales = (
  urls = [
    { url: 'https://shop.example.com/pricing', type: 'pricing', count: 6, percentage: 60 },
    { url: longUrl, type: 'content', count: 4, percentage: 40 },
  ],
) => ({
  top_referred_urls: urls,
  total_referrals: urls.reduce((a, u) => a + u.count, 0),
  unique_urls: urls.length,
  days_analyzed: 7,
  by_type: [],
});

const curated = () => ({
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
    total: 2,
    questions: 1,
    items: [
      {
        question: 'Do you sell gift cards?',
        times: 2,
        last_asked_at: '2026-11-23T10:00:00.000Z',
        thread_id: 'thread_1',
        assistant_id: 7,
        assistant_name: 'Shop',
      },
    ],
  },
});

type Answers = Partial<Record<'dashboard' | 'limits' | 'keywords' | 'sales' | 'curated', () => Response>>;
function serve(answers: Answers = {}) {
  const calls: string[] = [];
  const fetchMock = vi.fn(async (url: string) => {
    calls.push(url);
    if (url.startsWith('/api/v1/analytics/dashboard')) return (answers.dashboard ?? (() => ok(dashboard())))();
    if (url.startsWith('/api/v1/limits/analytics')) return (answers.limits ?? (() => ok(limits())))();
    if (url.startsWith('/api/v1/keyword-analytics/dashboard')) return (answers.keywords ?? (() => ok(keywords())))();
    if (url.startsWith('/api/v1/analytics/sales-analytics')) return (answers.sales ?? (() => ok(sales())))();
    if (url.startsWith('/api/v1/analytics/curated-answers')) return (answers.curated ?? (() => ok(curated())))();
    return json(404, { detail: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

// Role queries over the whole page are slow in jsdom: on the busy two-core machine (eight people at once) these
// tests took 5 to 15 s each, past the default 5, once the page had its curated-answers card.
describe('the analytics page', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows every section for the default 7 days: figures, gauge, donut, charts, keywords and referrals', async () => {
    const { calls } = serve();
    renderWithProviders(<AnalyticsPage />);
    expect(screen.getAllByRole('status').length).toBeGreaterThan(0); // loading
    expect(await screen.findByText('740 ms')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Time range' })).toHaveValue('7');
    expect(calls).toEqual(
      expect.arrayContaining([
        '/api/v1/analytics/dashboard?days=7',
        '/api/v1/limits/analytics',
        '/api/v1/keyword-analytics/dashboard?days=7&limit=5',
        '/api/v1/analytics/sales-analytics?days=7&limit=10',
      ]),
    );
    // overview
    expect(screen.getByText('Users').nextSibling).toHaveTextContent('4');
    expect(screen.getByText('Queries', { selector: 'dt' }).nextSibling).toHaveTextContent('12');
    // gauge: 740 ms is fair (500–1,000)
    expect(
      screen.getByRole('img', { name: 'Average response time 740 ms out of 5,000 ms (Fair)' }),
    ).toBeInTheDocument();
    // donut: 75 % is good
    expect(screen.getByText('75% satisfied')).toBeInTheDocument();
    expect(screen.getByText('Good')).toBeInTheDocument();
    // charts: min/max/avg of the days with a value
    const queriesChart = screen.getByRole('group', { name: 'Daily queries' }).closest('figure')!;
    expect(within(queriesChart).getByText('Min').nextSibling).toHaveTextContent('2');
    expect(within(queriesChart).getByText('Max').nextSibling).toHaveTextContent('6');
    expect(within(queriesChart).getByText('Avg').nextSibling).toHaveTextContent('4');
    const timesChart = screen.getByRole('group', { name: 'Daily response time (ms)' }).closest('figure')!;
    expect(within(timesChart).getByText('Avg').nextSibling).toHaveTextContent('600');
    // usage card, against the plan's 20,000 messages: 16,000 is 80 % → warning; tokens 2.4 M of 3 M; storage of the plan's 5,120 MB
    expect(await screen.findByText('16,000 of 20,000')).toBeInTheDocument();
    expect(screen.getByText('13,600 of 17,000')).toBeInTheDocument();
    expect(screen.getByText('16,000 of 20,000').closest('li')).toHaveClass('state-warning');
    expect(screen.getByText('2,400,000 of 3,000,000').closest('li')).toHaveClass('state-warning');
    expect(screen.getByText('20 of 5,120')).toBeInTheDocument();
    // keywords: top 5 each
    const customer = await screen.findByRole('list', { name: 'Top customer keywords' });
    expect(within(customer).getAllByRole('listitem')).toHaveLength(5);
    expect(within(customer).getByText('shipping').nextSibling).toHaveTextContent('10 mentions');
    expect(within(screen.getByRole('list', { name: 'Top assistant keywords' })).getAllByRole('listitem')).toHaveLength(
      2,
    );
    // referrals: badge, count, share, total, truncation at 60 characters
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Pricing')).toHaveClass('badge');
    expect(within(table).getByText('60%')).toBeInTheDocument();
    const long = within(table).getByTitle(longUrl);
    expect(long.textContent).toBe(`${longUrl.slice(0, 60)}…`);
    expect(long).toHaveAttribute('href', longUrl);
    expect(screen.getByText(/Total referrals: 10/)).toBeInTheDocument();
  });

  it("shows a day's value on hover and on keyboard focus", async () => {
    serve();
    renderWithProviders(<AnalyticsPage />);
    const chart = await screen.findByRole('group', { name: 'Daily queries' });
    const points = within(chart).getAllByRole('img');
    fireEvent.mouseEnter(points[1]!);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Nov 22: 4');
    fireEvent.mouseLeave(chart);
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => points[2]!.focus());
    expect(screen.getByRole('tooltip')).toHaveTextContent('Nov 23: 6');
  });

  it('asks again for the chosen range and on Refresh', async () => {
    const { calls } = serve();
    renderWithProviders(<AnalyticsPage />);
    await screen.findByText('740 ms');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Time range' }), '30');
    await waitFor(() => expect(calls).toContain('/api/v1/analytics/dashboard?days=30'));
    expect(calls).toContain('/api/v1/keyword-analytics/dashboard?days=30&limit=5');
    expect(calls).toContain('/api/v1/analytics/sales-analytics?days=30&limit=10');
    expect(calls).toContain('/api/v1/analytics/curated-answers?days=30');
    await screen.findByText('740 ms');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled());
    const before = calls.length;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(before + 5));
  });

  it("says each section's failure with the spec's text, and Retry loads it", async () => {
    let failing = true;
    const fail = (body: () => Response) => () =>
      failing ? json(500, { detail: 'Server error occurred. Please try again later.' }) : body();
    serve({
      dashboard: fail(() => ok(dashboard())),
      limits: fail(() => ok(limits())),
      keywords: fail(() => ok(keywords())),
      sales: fail(() => ok(sales())),
    });
    renderWithProviders(<AnalyticsPage />);
    expect(
      await screen.findByText('Failed to load analytics data: Server error occurred. Please try again later.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Failed to load limits data')).toBeInTheDocument();
    expect(await screen.findByText('Failed to load keyword analytics')).toBeInTheDocument();
    expect(await screen.findByText('Error loading sales analytics')).toBeInTheDocument();
    const retries = screen.getAllByRole('button', { name: 'Retry' });
    expect(retries).toHaveLength(4);
    failing = false;
    for (const retry of retries) await userEvent.click(retry);
    expect(await screen.findByText('740 ms')).toBeInTheDocument();
    expect(await screen.findByText('16,000 of 20,000')).toBeInTheDocument();
    expect(await screen.findByText('shipping')).toBeInTheDocument();
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('says "Invalid response format" when an answer is not the success envelope', async () => {
    serve({ limits: () => json(200, { data: limits() }), dashboard: () => json(200, dashboard()) });
    renderWithProviders(<AnalyticsPage />);
    expect(await screen.findAllByText('Invalid response format')).toHaveLength(2);
  });

  it('says "Please log in to view analytics" when the session is gone', async () => {
    serve({ dashboard: () => json(401, { detail: 'Authentication required. Please log in again.' }) });
    renderWithProviders(<AnalyticsPage />);
    expect(await screen.findByText('Please log in to view analytics')).toBeInTheDocument();
  });

  it('says when there is nothing yet: no analytics, no keywords, no referred URLs', async () => {
    serve({ dashboard: () => ok(emptyDashboard()), keywords: () => ok(keywords([], [])), sales: () => ok(sales([])) });
    renderWithProviders(<AnalyticsPage />);
    expect(await screen.findByText('No analytics data available')).toBeInTheDocument();
    expect(await screen.findAllByText('No keywords yet')).toHaveLength(2);
    expect(await screen.findByText('No referred URLs yet')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Daily queries' })).toBeNull();
  });

  it('speaks Hebrew, error texts included', async () => {
    serve({ keywords: () => json(500, {}) });
    renderWithProviders(<AnalyticsPage />, { language: 'he' });
    expect(await screen.findByRole('heading', { name: 'אנליטיקה', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('טעינת ניתוח מילות המפתח נכשלה')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'נסו שוב' })).toBeInTheDocument();
    expect(await screen.findByText('75% שביעות רצון')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'רענון נתונים' })).toBeInTheDocument();
  });
});
