import {
  AnalyticsHealthSchema,
  AssistantPerformanceSchema,
  DashboardSchema,
  FeedbackAllStatsSchema,
  KeywordDashboardSchema,
  KeywordListSchema,
  KeywordTrendsSchema,
  QueriesSchema,
  SalesAnalyticsSchema,
  successEnvelope,
  SystemMetricsSchema,
  UsageStatsSchema,
} from '@kesher/contracts';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  getJson,
  ownerThread,
  ownerWithAssistant,
  scriptedProvider,
  settled,
  visitorThread,
  type ScenarioOwner,
} from '../../../analytics/testing/analytics-scenario.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/** Every analytics and keyword-analytics call with the schema its `data` must match. */
const ROUTES: readonly [string, z.ZodType][] = [
  ['/api/v1/analytics/dashboard', DashboardSchema],
  ['/api/v1/analytics/system-metrics', SystemMetricsSchema],
  ['/api/v1/analytics/queries', QueriesSchema],
  ['/api/v1/analytics/usage-stats', UsageStatsSchema],
  ['/api/v1/analytics/sales-analytics', SalesAnalyticsSchema],
  ['/api/v1/analytics/health', AnalyticsHealthSchema],
  ['/api/v1/feedback/all-stats', FeedbackAllStatsSchema],
  ['/api/v1/keyword-analytics/customer-keywords', KeywordListSchema],
  ['/api/v1/keyword-analytics/assistant-keywords', KeywordListSchema],
  ['/api/v1/keyword-analytics/keyword-trends', KeywordTrendsSchema],
  ['/api/v1/keyword-analytics/dashboard', KeywordDashboardSchema],
  ['/api/v1/keyword-analytics/health', AnalyticsHealthSchema],
];

describe.skipIf(!gate.available)(`analytics routes${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  let dana: ScenarioOwner;
  let noa: ScenarioOwner;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    h = await createApiHarness({ answerProvider: scriptedProvider, env: { PLAN_FREE_MESSAGES_PER_MONTH: '1000' } });
    dana = await ownerWithAssistant(h, { share: true, body: { name: 'Dana bakery' } });
    noa = await ownerWithAssistant(h, { body: { name: 'Noa shop' } });

    // Dana: two questions of her own, a visitor's two (one Hebrew, one about prices), feedback, a tracked query.
    const thread = await ownerThread(h, dana);
    const first = await ask(h, dana, thread, 'Do you bake sourdough bread on Fridays?');
    await ask(h, dana, thread, 'What is the price of sourdough bread?');
    const visitor = await visitorThread(h, dana);
    await visitor.ask('האם אתם אופים לחם מחמצת?');
    await visitor.ask('What are your prices for sourdough?');
    const like = await h.app.inject({
      method: 'POST',
      url: '/api/v1/feedback',
      headers: dana.auth,
      payload: { assistant_id: dana.assistantId, thread_id: thread, message_id: first.id, rating: 'like' },
    });
    expect(like.statusCode).toBe(200);
    const tracked = await h.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/track-query',
      headers: dana.auth,
      payload: { query: 'opening hours via our CRM', assistant_id: dana.assistantId, response_time_ms: 420 },
    });
    expect(tracked.statusCode).toBe(201);
    expect(tracked.json()).toMatchObject({ status: 'success', data: { query_id: expect.stringMatching(/^query_/) } });
    // Noa: one question.
    await ask(h, noa, await ownerThread(h, noa), 'Do you sell gift cards?');
    await settled(h);
  });
  afterAll(async () => h?.close());

  it("answers the owner's dashboard from the read models: totals, people, response times, feedback, channels, languages and daily trends", async () => {
    const { status, body } = await getJson(h, '/api/v1/analytics/dashboard', dana.auth);
    expect(status).toBe(200);
    const data = successEnvelope(DashboardSchema).parse(body).data;
    expect(data.period).toMatchObject({ days: 7, end_date: today });
    expect(data.overview).toEqual({
      total_conversations: 2,
      total_queries: 5,
      total_answers: 4,
      tracked_queries: 1,
      users: 2,
      new_users: 2,
      active_assistants: 1,
      total_assistants: 1,
      success_rate: 100,
      failed_runs: 0,
      expired_runs: 0,
    });
    expect(data.response_time.samples).toBe(4);
    expect(data.response_time.first_token.samples).toBe(4);
    expect(data.response_time.avg_ms).not.toBeNull();
    expect(data.response_time.min_ms!).toBeLessThanOrEqual(data.response_time.p50_ms!);
    expect(data.response_time.p50_ms!).toBeLessThanOrEqual(data.response_time.max_ms!);
    expect(data.feedback).toEqual({ positive: 1, negative: 0, total: 1, satisfaction_rate: 100 });
    expect(data.channels).toEqual(
      expect.arrayContaining([
        { channel: 'app', conversations: 1, queries: 2 },
        { channel: 'public_link', conversations: 1, queries: 2 },
        { channel: 'tracked', conversations: 0, queries: 1 },
      ]),
    );
    expect(data.languages).toEqual({ he: 1, en: 3, other: 0 });
    expect(data.trends.daily_queries).toHaveLength(7);
    expect(data.trends.daily_queries.at(-1)).toEqual({ date: today, queries: 5 });
    expect(data.trends.daily_queries.slice(0, 6).every((day) => day.queries === 0)).toBe(true);
    expect(data.trends.daily_response_times.at(-1)).toMatchObject({ date: today, samples: 4 });
    expect(data.trends.daily_conversations.at(-1)).toEqual({ date: today, conversations: 2 });

    const month = await getJson(h, '/api/v1/analytics/dashboard?days=90', dana.auth);
    expect(month.body.data.trends.daily_queries).toHaveLength(90);
    expect((await getJson(h, '/api/v1/analytics/dashboard?days=0', dana.auth)).status).toBe(422);
  });

  it("answers one assistant's performance, and 404 for another owner's assistant", async () => {
    const { body } = await getJson(h, `/api/v1/analytics/assistant/${dana.assistantId}/performance`, dana.auth);
    const data = successEnvelope(AssistantPerformanceSchema).parse(body).data;
    expect(data).toMatchObject({
      assistant: { id: dana.assistantId, name: 'Dana bakery' },
      period: { days: 30 },
      conversations: 2,
      queries: 5,
      answers: 4,
      runs: { completed: 4, failed: 0, expired: 0 },
      tokens: { prompt: 400, completion: 80, total: 480 },
      feedback: { positive: 1, total: 1 },
      referrals: 2,
    });
    expect(data.daily).toHaveLength(30);
    expect((await getJson(h, `/api/v1/analytics/assistant/${noa.assistantId}/performance`, dana.auth)).status).toBe(
      404,
    );
    expect((await getJson(h, `/api/v1/analytics/assistant/999999/performance`, dana.auth)).status).toBe(404);
  });

  it('lists the queries newest first with how they ended, filtered by success and assistant', async () => {
    const { body } = await getJson(h, '/api/v1/analytics/queries', dana.auth);
    const data = successEnvelope(QueriesSchema).parse(body).data;
    expect(data.limit).toBe(50);
    expect(data.queries.map((q) => q.query)).toEqual([
      'opening hours via our CRM',
      'What are your prices for sourdough?',
      'האם אתם אופים לחם מחמצת?',
      'What is the price of sourdough bread?',
      'Do you bake sourdough bread on Fridays?',
    ]);
    expect(data.queries[0]).toMatchObject({
      source: 'tracked',
      status: 'success',
      success: true,
      response_time_ms: 420,
      assistant_id: dana.assistantId,
      assistant_name: 'Dana bakery',
    });
    expect(data.queries[1]).toMatchObject({
      source: 'chat',
      channel: 'public_link',
      status: 'success',
      success: true,
      assistant_id: dana.assistantId,
    });
    expect(data.queries[1]!.response_time_ms).toBeGreaterThanOrEqual(0);

    const two = (await getJson(h, '/api/v1/analytics/queries?limit=2&success_only=true', dana.auth)).body.data;
    expect(two).toMatchObject({ count: 2, limit: 2 });
    expect(
      (await getJson(h, `/api/v1/analytics/queries?assistant_id=${dana.assistantId}`, dana.auth)).body.data.count,
    ).toBe(5);
    expect((await getJson(h, `/api/v1/analytics/queries?assistant_id=${noa.assistantId}`, dana.auth)).status).toBe(404);
  });

  it('sums usage over a period, the week by default', async () => {
    const { body } = await getJson(h, '/api/v1/analytics/usage-stats', dana.auth);
    const data = successEnvelope(UsageStatsSchema).parse(body).data;
    expect(data).toMatchObject({
      period: 'week',
      days: 7,
      queries: 5,
      conversations: 2,
      answers: 4,
      tracked_queries: 1,
      tokens: { total: 480 },
      active_assistants: 1,
    });
    expect(data.by_assistant).toEqual([
      { assistant_id: dana.assistantId, assistant_name: 'Dana bakery', queries: 5, conversations: 2 },
    ]);
    expect((await getJson(h, '/api/v1/analytics/usage-stats?period=month', dana.auth)).body.data.days).toBe(30);
    expect((await getJson(h, '/api/v1/analytics/usage-stats?period=decade', dana.auth)).status).toBe(422);
  });

  it('ranks the referred URLs from the redirect markers, with their type and share', async () => {
    const { body } = await getJson(h, '/api/v1/analytics/sales-analytics', dana.auth);
    const data = successEnvelope(SalesAnalyticsSchema).parse(body).data;
    expect(data).toEqual({
      top_referred_urls: [{ url: 'https://bakery.example.com/pricing', type: 'pricing', count: 2, percentage: 100 }],
      total_referrals: 2,
      unique_urls: 1,
      days_analyzed: 30,
      by_type: [{ type: 'pricing', count: 2, percentage: 100 }],
    });
  });

  it('counts feedback, and the keywords of both sides of the conversations', async () => {
    expect((await getJson(h, '/api/v1/feedback/all-stats?days=1', dana.auth)).body).toEqual({
      status: 'success',
      data: { positive: 1, negative: 0, total: 1, satisfaction_rate: 100, days: 1, with_comments: 0 },
    });
    const customer = successEnvelope(KeywordListSchema).parse(
      (await getJson(h, '/api/v1/keyword-analytics/customer-keywords', dana.auth)).body,
    ).data;
    expect(customer).toMatchObject({ source: 'customer', days: 30 });
    expect(customer.keywords[0]).toEqual({ keyword: 'sourdough', count: 3, percentage: expect.any(Number) });
    expect(customer.keywords.map((k) => k.keyword)).toEqual(expect.arrayContaining(['bread', 'price', 'מחמצת']));
    const answers = (await getJson(h, '/api/v1/keyword-analytics/assistant-keywords?limit=3', dana.auth)).body.data;
    expect(answers.keywords).toHaveLength(3);
    // The answers echo the questions ("You asked: …"): ties rank alphabetically.
    expect(answers.keywords.slice(0, 2)).toEqual([
      expect.objectContaining({ keyword: 'asked', count: 3 }),
      expect.objectContaining({ keyword: 'sourdough', count: 3 }),
    ]);
    // The redirect marker's address is not a keyword.
    expect(answers.keywords.map((k: { keyword: string }) => k.keyword)).not.toContain('pricing');
    const trends = successEnvelope(KeywordTrendsSchema).parse(
      (await getJson(h, '/api/v1/keyword-analytics/keyword-trends?days=7', dana.auth)).body,
    ).data;
    expect(trends.dates).toHaveLength(7);
    expect(trends.trends[0]).toMatchObject({ keyword: 'sourdough', total: 3 });
    expect(trends.trends[0]!.counts.at(-1)).toBe(3);
    const both = successEnvelope(KeywordDashboardSchema).parse(
      (await getJson(h, '/api/v1/keyword-analytics/dashboard', dana.auth)).body,
    ).data;
    expect(both.customer_keywords.keywords[0]!.keyword).toBe('sourdough');
  });

  it('reports health and system metrics (process figures only for operators)', async () => {
    const health = successEnvelope(AnalyticsHealthSchema).parse(
      (await getJson(h, '/api/v1/analytics/health', dana.auth)).body,
    ).data;
    expect(health.status).toBe('healthy');
    expect(health.read_models.map((m) => m.name)).toEqual(
      expect.arrayContaining(['analytics-activity', 'analytics-keywords', 'analytics-queries']),
    );
    const metrics = successEnvelope(SystemMetricsSchema).parse(
      (await getJson(h, '/api/v1/analytics/system-metrics', dana.auth)).body,
    ).data;
    expect(metrics.process).toBeNull();
    const keywordHealth = (await getJson(h, '/api/v1/keyword-analytics/health', dana.auth)).body.data;
    expect(keywordHealth.read_models.map((m: { name: string }) => m.name)).toEqual(['analytics-keywords']);
  });

  it("isolates owners on every route: Noa sees only her own question, never Dana's", async () => {
    for (const [url, schema] of ROUTES) {
      const { status, body } = await getJson(h, url, noa.auth);
      expect(status, url).toBe(200);
      successEnvelope(schema).parse(body);
      const text = JSON.stringify(body);
      for (const secret of ['sourdough', 'מחמצת', 'bakery.example.com', 'CRM', 'Dana bakery'])
        expect(text, `${url} leaks ${secret}`).not.toContain(secret);
    }
    const dashboard = (await getJson(h, '/api/v1/analytics/dashboard', noa.auth)).body.data;
    expect(dashboard.overview).toMatchObject({
      total_conversations: 1,
      total_queries: 1,
      users: 1,
      total_assistants: 1,
    });
    expect(dashboard.feedback.total).toBe(0);
    expect((await getJson(h, '/api/v1/analytics/sales-analytics', noa.auth)).body.data.total_referrals).toBe(0);
    expect(
      (await getJson(h, '/api/v1/analytics/queries', noa.auth)).body.data.queries.map(
        (q: { query: string }) => q.query,
      ),
    ).toEqual(['Do you sell gift cards?']);
    expect(
      (await getJson(h, '/api/v1/keyword-analytics/customer-keywords', noa.auth)).body.data.keywords.map(
        (k: { keyword: string }) => k.keyword,
      ),
    ).toEqual(expect.arrayContaining(['sell', 'gift', 'cards']));
    // Naming Dana's assistant anywhere answers as if it did not exist.
    for (const url of [
      `/api/v1/analytics/assistant/${dana.assistantId}/performance`,
      `/api/v1/analytics/queries?assistant_id=${dana.assistantId}`,
      `/api/v1/feedback/all-stats?assistant_id=${dana.assistantId}`,
      `/api/v1/keyword-analytics/customer-keywords?assistant_id=${dana.assistantId}`,
    ]) {
      expect((await getJson(h, url, noa.auth)).status, url).toBe(404);
    }
    const foreign = await h.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/track-query',
      headers: noa.auth,
      payload: { query: 'x', assistant_id: dana.assistantId },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses every call without a signed-in owner', async () => {
    for (const [url] of ROUTES) expect((await getJson(h, url)).status, url).toBe(401);
    expect((await getJson(h, `/api/v1/analytics/assistant/${dana.assistantId}/performance`)).status).toBe(401);
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/v1/analytics/track-query', payload: { query: 'x' } }))
        .statusCode,
    ).toBe(401);
  });

  it('is documented in the OpenAPI document (GraphQL describes itself)', async () => {
    const spec = (await h.app.inject({ url: '/api/v1/docs/openapi.json' })).json();
    for (const [url] of ROUTES) expect(spec.paths[url]?.get?.responses?.['200'], url).toBeDefined();
    expect(spec.paths['/api/v1/analytics/track-query'].post.responses['201']).toBeDefined();
    expect(spec.paths['/api/v1/graphql']).toBeUndefined();
  });

  it('refuses a malformed tracked query with the API error shape', async () => {
    const empty = await h.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/track-query',
      headers: dana.auth,
      payload: { query: '   ' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0].msg).toBe('Query cannot be empty');
  });
});
