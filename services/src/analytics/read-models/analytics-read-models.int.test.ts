import type { Channel, MessageLanguage, RecordedEvent } from '@kesher/contracts';
import { analyticsProjections } from '@kesher/projections/analytics/analytics-projections';
import { dailyActivityQueries } from '@kesher/projections/analytics/daily-activity/daily-activity.queries';
import { feedbackQueries } from '@kesher/projections/analytics/feedback/feedback.queries';
import { keywordQueries } from '@kesher/projections/analytics/keywords/keywords.queries';
import { limitViolationQueries } from '@kesher/projections/analytics/limit-violations/limit-violations.queries';
import { queryLogQueries } from '@kesher/projections/analytics/queries/queries.queries';
import { referralQueries } from '@kesher/projections/analytics/referred-urls/referred-urls.queries';
import { responseTimeQueries } from '@kesher/projections/analytics/response-times/response-times.queries';
import { ALL_OWNERS, ownerScope } from '@kesher/projections/analytics/shared/owner-scope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../platform/sql/sql.port.js';
import { onEverySqlBackend, type OpenSql } from '../../testing/sql-backends.js';
import { eventLog, readModelOn } from '../testing/read-model-fixture.js';

const DAY1 = '2026-04-10';
const DAY2 = '2026-04-11';
const range = { from: DAY1, to: DAY2 };
const dana = ownerScope('dana');

/** A small conversation history over two days: Dana's app thread and a visitor's, Noa's thread. */
function history() {
  const log = eventLog(`${DAY1}T09:00:00.000Z`);
  const thread = (threadId: string, ownerId: string, assistantId: string, channel: Channel, visitor?: string) =>
    log.record('ThreadStarted', {
      threadId,
      assistantId,
      assistantOwnerId: ownerId,
      ownerId: visitor ? null : ownerId,
      visitorSessionHash: visitor ? visitor.repeat(64) : null,
      isPublic: Boolean(visitor),
      channel,
    });
  let messages = 0;
  const message = (
    threadId: string,
    role: 'user' | 'assistant',
    text: string,
    language: MessageLanguage = 'en',
    runId: string | null = null,
  ) =>
    log.record('MessagePosted', { messageId: `m${++messages}`, threadId, role, text, channel: 'app', language, runId });
  const requested = (threadId: string, runId: string) =>
    log.record('RunRequested', { runId, threadId, assistantId: 'x', deadlineAt: '2026-12-31T00:00:00.000Z' });
  const completed = (
    threadId: string,
    runId: string,
    responseMs: number,
    referredUrl: string | null = null,
    firstTokenMs: number | null = responseMs / 2,
  ) =>
    log.record('RunCompleted', {
      runId,
      threadId,
      messageId: `answer-${runId}`,
      responseMs,
      firstTokenMs,
      promptTokens: 10,
      completionTokens: 5,
      sources: [],
      referredUrl,
    });
  const feedback = (
    threadId: string,
    messageId: string,
    rating: 'like' | 'dislike',
    authorKey = 'account:dana',
    comment: string | null = null,
  ) =>
    log.record('FeedbackGiven', {
      messageId,
      threadId,
      assistantId: 'a1',
      rating,
      comment,
      authorKey,
      source: 'chat',
      isPublic: false,
    });

  const events: RecordedEvent[] = [
    thread('t1', 'dana', 'a1', 'app'),
    message('t1', 'user', 'How much does the sourdough bread cost?'),
    requested('t1', 'r1'),
    message(
      't1',
      'assistant',
      'The sourdough bread costs 24 shekels.\n[REDIRECT: https://bakery.example.com/pricing]',
      'en',
      'r1',
    ),
    completed('t1', 'r1', 800, 'https://bakery.example.com/pricing'),
    feedback('t1', 'answer-r1', 'like'),
    thread('t2', 'dana', 'a1', 'embed', 'v'),
    message('t2', 'user', 'האם יש לכם לחם מחמצת?', 'he'),
    requested('t2', 'r2'),
    log.record('RunFailed', {
      runId: 'r2',
      threadId: 't2',
      error: 'The assistant could not answer right now. Please try again.',
    }),
    // A visitor opens a conversation through a share link and never writes: not a conversation (issue 21 item 13).
    thread('t4', 'dana', 'a1', 'public_link', 'w'),
    thread('t3', 'noa', 'n1', 'app'),
    message('t3', 'user', 'Do you sell gift cards?'),
    requested('t3', 'r3'),
    completed('t3', 'r3', 300, 'https://shop.example.com/products/gift-card'),
  ];
  log.at(`${DAY2}T10:00:00.000Z`);
  events.push(
    message('t2', 'user', 'ומה עם המחמצת והלחם?', 'he'),
    requested('t2', 'r4'),
    completed('t2', 'r4', 1500, 'https://bakery.example.com/pricing', null),
    // Dana changes her mind about the first answer the next day; a visitor likes it.
    feedback('t1', 'answer-r1', 'dislike', 'account:dana', 'Too expensive'),
    feedback('t1', 'answer-r1', 'like', 'visitor:v'),
  );
  log.at(`${DAY2}T11:00:00.000Z`);
  events.push(
    log.record('QueryTracked', {
      queryId: 'q1',
      ownerId: 'dana',
      assistantId: null,
      query: 'Hours from the CRM',
      responseTimeMs: 120,
      success: false,
      source: 'crm',
    }),
    log.record('LimitViolated', {
      violationId: 'v1',
      ownerId: 'dana',
      kind: 'monthly_messages',
      limit: 100,
      used: 100,
      requested: null,
      assistantId: 'a1',
      refused: 'visitor',
    }),
    log.record('LimitViolated', {
      violationId: 'v2',
      ownerId: 'noa',
      kind: 'storage',
      limit: 200,
      used: 150,
      requested: 300,
      assistantId: 'n1',
      refused: 'owner',
    }),
    // Noa's answer refers to an address whose words say nothing; the crawler later files it as a checkout page.
    requested('t3', 'r5'),
    completed('t3', 'r5', 400, 'https://shop.example.com/p/42'),
    log.record('PageFetched', {
      crawlId: 'c1',
      url: 'https://shop.example.com/p/42',
      finalUrl: 'https://shop.example.com/p/42',
      key: 'https://shop.example.com/p/42',
      depth: 1,
      status: 200,
      notModified: false,
      kind: 'html',
      title: 'Checkout',
      language: 'en',
      characters: 100,
      bytes: 100,
      truncated: false,
      note: null,
      contentSha256: null,
      htmlSha256: null,
      etag: null,
      lastModified: null,
      isSalesPage: true,
      salesCategory: 'checkout',
      detectionReason: 'cart',
      links: [],
    }),
    // A message of a conversation this read model never saw start: skipped, never thrown on.
    message('t-unknown', 'user', 'orphan'),
  );
  return events;
}

function suite(name: string, open: OpenSql) {
  describe(`analytics read models on ${name}`, () => {
    let sql: Sql;
    let close: () => Promise<void>;
    const events = history();

    beforeAll(async () => {
      ({ sql, close } = await open());
      for (const projection of analyticsProjections) await (await readModelOn(sql, projection)).apply(...events);
    });
    afterAll(async () => close?.());

    it('daily activity: conversations, queries by language, answers, runs and tokens per day; people; live totals', async () => {
      const activity = dailyActivityQueries(sql);
      expect(await activity.totals(dana, range)).toEqual({
        conversations: 2,
        queries: 3,
        queriesHe: 2,
        queriesEn: 1,
        queriesOther: 0,
        answers: 1,
        trackedQueries: 1,
        feedback: 3,
        runsCompleted: 2,
        runsFailed: 1,
        runsExpired: 0,
        promptTokens: 20,
        completionTokens: 10,
      });
      const days = await activity.perDay(dana, range);
      expect(days.get(DAY1)).toMatchObject({ conversations: 2, queries: 2, runsFailed: 1 });
      expect(days.get(DAY2)).toMatchObject({ conversations: 0, queries: 1, trackedQueries: 1, runsCompleted: 1 });
      expect(await activity.perChannel(dana, range)).toEqual([
        { channel: 'embed', conversations: 1, queries: 2, trackedQueries: 0 },
        { channel: 'app', conversations: 1, queries: 1, trackedQueries: 0 },
        { channel: 'tracked', conversations: 0, queries: 0, trackedQueries: 1 },
      ]);
      const breakdown = await activity.breakdown(dana, range);
      expect(breakdown.totals).toEqual(await activity.totals(dana, range));
      expect(breakdown.perDay).toEqual(days);
      expect(breakdown.perChannel).toEqual(await activity.perChannel(dana, range));
      expect(breakdown.perAssistant).toEqual(await activity.perAssistant(dana, range));
      expect(await activity.people(dana, range)).toEqual({ active: 2, new: 2 });
      expect(await activity.people(dana, { from: DAY2, to: DAY2 })).toEqual({ active: 1, new: 0 });
      expect(await activity.liveCounters(['dana', 'noa', 'nobody'])).toEqual(
        expect.arrayContaining([
          { ownerId: 'dana', conversations: 2, messages: 4, feedback: 3 },
          { ownerId: 'noa', conversations: 1, messages: 1, feedback: 0 },
        ]),
      );
      expect((await activity.totals(ALL_OWNERS, range)).conversations).toBe(3);
      expect((await activity.totals(ownerScope('noa'), range)).queries).toBe(1);
    });

    it('response times: exact count, average and extremes, percentiles from the merged day histograms; first tokens', async () => {
      const times = await responseTimeQueries(sql).range(dana, range);
      expect(times.completed).toMatchObject({ samples: 2, avgMs: 1150, minMs: 800, maxMs: 1500 });
      expect(times.completed.p50Ms! / 800).toBeCloseTo(1, 1);
      // Within half a bucket (5 %) of the exact figure, and never past the exact maximum.
      expect(times.completed.p99Ms! / 1500).toBeCloseTo(1, 1);
      expect(times.completed.p99Ms!).toBeLessThanOrEqual(1500);
      // The day-2 run has no first-token time (recorded before it was kept): only day 1's counts.
      expect(times.firstToken).toMatchObject({ samples: 1, avgMs: 400, minMs: 400, maxMs: 400 });
      expect([...times.daily.keys()].sort()).toEqual([DAY1, DAY2]);
      expect((await responseTimeQueries(sql).range(dana, range, 'other-assistant')).completed.samples).toBe(0);
    });

    it('feedback: the latest rating of each author counts, on the day it was given', async () => {
      const feedback = feedbackQueries(sql);
      expect(await feedback.totals(dana, range)).toEqual({ positive: 1, negative: 1, withComments: 1 });
      expect(await feedback.totals(dana, { from: DAY1, to: DAY1 })).toEqual({
        positive: 0,
        negative: 0,
        withComments: 0,
      });
      expect(await feedback.totals(ownerScope('noa'), range)).toEqual({ positive: 0, negative: 0, withComments: 0 });
    });

    it('keywords: stop words out, a message counts a word once, Hebrew forms meet, the redirect address is no keyword', async () => {
      const keywords = keywordQueries(sql);
      const customer = await keywords.top(dana, 'customer', range, 10);
      // "מחמצת" and "המחמצת", "לחם" and "והלחם" meet under the bare forms; "ומה", "עם", "יש", "לכם" are stop words.
      expect(customer.keywords.map((k) => [k.label, k.count])).toEqual([
        ['לחם', 2],
        ['מחמצת', 2],
        ['bread', 1],
        ['cost', 1],
        ['sourdough', 1],
      ]);
      expect(customer.totalMentions).toBe(7);
      const answers = await keywords.top(dana, 'assistant', range, 10);
      expect(answers.keywords.map((k) => k.label)).toEqual(['bread', 'costs', 'shekels', 'sourdough']);
      const trends = await keywords.trends(dana, 'customer', range, 2);
      expect(trends[1]).toMatchObject({ label: 'מחמצת', count: 2 });
      expect(Object.fromEntries(trends[1]!.perDay)).toEqual({ [DAY1]: 1, [DAY2]: 1 });
      // "לחם" (day 1) and "והלחם" (day 2): one keyword, per day too.
      expect(trends[0]).toMatchObject({ label: 'לחם', count: 2 });
      expect(Object.fromEntries(trends[0]!.perDay)).toEqual({ [DAY1]: 1, [DAY2]: 1 });
    });

    it('referred URLs: counted per address with the type its words suggest', async () => {
      const referrals = referralQueries(sql);
      expect(await referrals.ranking(dana, range, 10)).toEqual({
        top: [{ url: 'https://bakery.example.com/pricing', type: 'pricing', count: 2 }],
        total: 2,
        uniqueUrls: 1,
        byType: [{ type: 'pricing', count: 2 }],
      });
      // The crawler's category wins over the address's words.
      expect((await referrals.ranking(ownerScope('noa'), range, 10)).top).toEqual([
        { url: 'https://shop.example.com/p/42', type: 'sales', count: 1 },
        { url: 'https://shop.example.com/products/gift-card', type: 'sales', count: 1 },
      ]);
    });

    it('queries: each run is the question it answered and how it ended; tracked queries too', async () => {
      const rows = await queryLogQueries(sql).recent(dana, { limit: 10, successOnly: false });
      expect(rows.map((q) => [q.id, q.query, q.status, q.responseTimeMs])).toEqual([
        ['q1', 'Hours from the CRM', 'failed', 120],
        ['r4', 'ומה עם המחמצת והלחם?', 'success', 1500],
        ['r2', 'האם יש לכם לחם מחמצת?', 'failed', null],
        ['r1', 'How much does the sourdough bread cost?', 'success', 800],
      ]);
      expect((await queryLogQueries(sql).recent(dana, { limit: 10, successOnly: true })).map((q) => q.id)).toEqual([
        'r4',
        'r1',
      ]);
      expect(
        (await queryLogQueries(sql).recent(dana, { limit: 10, successOnly: false, assistantId: 'a1' })).map(
          (q) => q.id,
        ),
      ).toEqual(['r4', 'r2', 'r1']);
    });

    it('limit refusals: listed per owner and counted per kind', async () => {
      const violations = limitViolationQueries(sql);
      expect(await violations.list(dana, range, { limit: 10 })).toEqual([
        expect.objectContaining({
          id: 'v1',
          kind: 'monthly_messages',
          limit: 100,
          used: 100,
          requested: null,
          assistantId: 'a1',
          refused: 'visitor',
        }),
      ]);
      expect(await violations.perKind(ownerScope('noa'), range)).toEqual([{ kind: 'storage', count: 1 }]);
      expect(await violations.list(ownerScope('noa'), { from: DAY1, to: DAY1 }, { limit: 10 })).toEqual([]);
    });

    it('every read model ends the same whether the log comes in one batch or one event at a time', async () => {
      for (const projection of analyticsProjections) {
        const model = await readModelOn(sql, projection);
        await model.apply(...events);
        const whole = await model.snapshot();
        expect(
          Object.values(whole).some((rows) => rows.length > 0),
          projection.name,
        ).toBe(true);
        await model.reset();
        for (const event of events) await model.apply(event);
        expect(await model.snapshot(), projection.name).toEqual(whole);
        await model.reset();
        for (let i = 0; i < events.length; i += 3) await model.apply(...events.slice(i, i + 3));
        expect(await model.snapshot(), projection.name).toEqual(whole);
      }
    });
  });
}

await onEverySqlBackend('analytics read models', suite);
