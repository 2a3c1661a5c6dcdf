import {
  chatMessages,
  fileMessages,
  LimitCheckSchema,
  LimitsAnalyticsSchema,
  LimitsStatusSchema,
  LimitTrendsSchema,
  messages,
  PlanLimitsViewSchema,
  successEnvelope,
  UsageHistorySchema,
  ViolationsSchema,
} from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  getJson,
  ownerThread,
  ownerWithAssistant,
  scriptedProvider,
  settled,
  type ScenarioOwner,
} from '../../../analytics/testing/analytics-scenario.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

function upload(text: string) {
  const boundary = `----kesher${Math.random().toString(16).slice(2)}`;
  return {
    payload: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="menu.txt"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`,
    ),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe.skipIf(!gate.available)(
  `the limits calls and the refusals they record${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let dana: ScenarioOwner;
    let noa: ScenarioOwner;
    // A Wednesday: this week began on Monday the 15th.
    const now = new Date('2026-04-17T10:00:00.000Z');

    beforeAll(async () => {
      h = await createApiHarness({
        answerProvider: scriptedProvider,
        clock: () => now,
        env: { PLAN_FREE_MESSAGES_PER_MONTH: '3', PLAN_FREE_MAX_ASSISTANTS: '1', KNOWLEDGE_STORAGE_LIMIT_BYTES: '200' },
      });
      dana = await ownerWithAssistant(h, { body: { chat_limit: 2 } });
      noa = await ownerWithAssistant(h);

      const post = (threadId: string, content: string) =>
        h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${threadId}/messages`,
          headers: dana.auth,
          payload: { content },
        });
      // chat_limit 2: the third message of a conversation is refused.
      const first = await ownerThread(h, dana);
      // The month counts answered messages (docs/chat.md): each of these is answered.
      await ask(h, dana, first, 'one');
      await ask(h, dana, first, 'two');
      const third = await post(first, 'three');
      expect(third.json()).toMatchObject({ detail: chatMessages.chatLimitReached(2) });
      // The plan's 3 monthly messages: the fourth is refused.
      const second = await ownerThread(h, dana);
      await ask(h, dana, second, 'four');
      const over = await post(second, 'five');
      expect(over.json()).toMatchObject({ detail: chatMessages.monthlyLimitReached(3) });
      // One assistant on the plan: a second is refused.
      const another = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: dana.auth,
        payload: { name: 'Second', description: 'x', instructions: 'y' },
      });
      expect(another.json()).toMatchObject({ detail: messages.assistantLimitReached(1) });
      // 200 bytes of storage: a 300-byte file is refused.
      const { payload, headers } = upload('x'.repeat(300));
      const big = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${dana.assistantId}/upload_file`,
        headers: { ...headers, ...dana.auth },
        payload,
      });
      expect(big.statusCode).toBe(413);
      expect(big.json()).toMatchObject({ detail: fileMessages.storageFull });
      await settled(h);
    });
    afterAll(async () => h?.close());

    it('records every refusal with its kind, limit and text, newest first, filtered by type', async () => {
      const { status, body } = await getJson(h, '/api/v1/limits/violations', dana.auth);
      expect(status).toBe(200);
      const data = successEnvelope(ViolationsSchema).parse(body).data;
      expect(data.days).toBe(7);
      expect(data.total).toBe(4);
      expect(data.violations.map((v) => [v.type, v.limit, v.message])).toEqual(
        expect.arrayContaining([
          ['chat_limit', 2, chatMessages.chatLimitReached(2)],
          ['monthly_messages', 3, chatMessages.monthlyLimitReached(3)],
          ['assistants', 1, messages.assistantLimitReached(1)],
          ['storage', 200, fileMessages.storageFull],
        ]),
      );
      const storage = data.violations.find((v) => v.type === 'storage')!;
      expect(storage).toMatchObject({
        used: 0,
        requested: 300,
        assistant_id: dana.assistantId,
        assistant_name: 'Bakery',
        refused: 'owner',
        occurred_at: now.toISOString(),
      });
      expect(data.violations.find((v) => v.type === 'monthly_messages')).toMatchObject({ used: 3, refused: 'owner' });
      expect(data.by_type.map((t) => t.count).reduce((a, b) => a + b, 0)).toBe(4);

      const only = (await getJson(h, '/api/v1/limits/violations?violation_type=assistants', dana.auth)).body.data;
      expect(only.violations.map((v: { type: string }) => v.type)).toEqual(['assistants']);
      expect(only.total).toBe(1);
      expect((await getJson(h, '/api/v1/limits/violations?violation_type=nonsense', dana.auth)).status).toBe(422);
    });

    it("reports the plan, the status with its bands, warnings and recommendations, and the limits card's quick stats", async () => {
      const plan = successEnvelope(PlanLimitsViewSchema).parse(
        (await getJson(h, '/api/v1/limits/limits', dana.auth)).body,
      ).data;
      expect(plan).toMatchObject({
        tier: 'FREE',
        limits: { max_messages_per_month: 3, max_assistants: 1 },
        period_start: '2026-04-01T00:00:00.000Z',
        period_end: '2026-05-01T00:00:00.000Z',
      });

      const status = successEnvelope(LimitsStatusSchema).parse(
        (await getJson(h, '/api/v1/limits/status', dana.auth)).body,
      ).data;
      // At its limits: nothing more is allowed, so not within them any more (issue 22 item 15), and each says so.
      expect(status.within_limits).toBe(false);
      expect(status.limits_summary.chat.total_messages).toEqual({
        used: 3,
        limit: 3,
        remaining: 0,
        percentage: 100,
        state: 'reached',
      });
      expect(status.limits_summary.assistants.total).toMatchObject({ used: 1, limit: 1, state: 'reached' });
      expect(status.limits_summary.storage.used_mb).toMatchObject({ used: 0, state: 'ok' });
      expect(status.warnings.map((w) => w.type)).toEqual(['monthly_messages', 'assistants']);
      expect(status.warnings[0]!.message).toBe("You have reached your plan's limit of monthly messages (3 of 3).");
      expect(status.recommendations.map((r) => r.type)).toEqual(['monthly_messages', 'assistants']);

      const card = successEnvelope(LimitsAnalyticsSchema).parse(
        (await getJson(h, '/api/v1/limits/analytics', dana.auth)).body,
      ).data;
      expect(card.quick_stats).toEqual({
        total_assistants: 1,
        total_conversations: 2,
        storage_used_mb: 0,
        messages_this_month: 3,
        violations_last_7_days: 4,
      });
      expect(card.limits_status.limits_summary.chat.total_messages.used).toBe(3);
    });

    it('checks a limit without recording anything', async () => {
      const check = async (payload: object) =>
        successEnvelope(LimitCheckSchema).parse(
          (await h.app.inject({ method: 'POST', url: '/api/v1/limits/check', headers: dana.auth, payload })).json(),
        ).data;
      expect(await check({ limit_type: 'monthly_messages' })).toEqual({
        limit_type: 'monthly_messages',
        allowed: false,
        used: 3,
        limit: 3,
        remaining: 0,
        requested: 1,
        message: chatMessages.monthlyLimitReached(3),
      });
      expect(await check({ limit_type: 'storage', amount: 150 })).toMatchObject({
        allowed: true,
        used: 0,
        limit: 200,
        remaining: 200,
        message: null,
      });
      expect(await check({ limit_type: 'files', assistant_id: dana.assistantId })).toMatchObject({
        allowed: true,
        used: 0,
        limit: 5,
      });
      // Six files while none of five is used: going over, not "has reached its plan's limit of 5 files".
      expect(await check({ limit_type: 'files', assistant_id: dana.assistantId, amount: 6 })).toMatchObject({
        allowed: false,
        used: 0,
        limit: 5,
        message: "This would go over your plan's limit of 5 files for this assistant: 5 left.",
      });
      const noAssistant = await h.app.inject({
        method: 'POST',
        url: '/api/v1/limits/check',
        headers: dana.auth,
        payload: { limit_type: 'files' },
      });
      expect(noAssistant.statusCode).toBe(422);
      const foreign = await h.app.inject({
        method: 'POST',
        url: '/api/v1/limits/check',
        headers: dana.auth,
        payload: { limit_type: 'files', assistant_id: noa.assistantId },
      });
      expect(foreign.statusCode).toBe(404);
      await settled(h);
      expect((await getJson(h, '/api/v1/limits/violations', dana.auth)).body.data.total).toBe(4);
    });

    it('gives the usage per day (30 by default) and per week (4 weeks by default, Monday first)', async () => {
      const history = successEnvelope(UsageHistorySchema).parse(
        (await getJson(h, '/api/v1/limits/usage/history', dana.auth)).body,
      ).data;
      expect(history.days).toBe(30);
      expect(history.history).toHaveLength(30);
      expect(history.history.at(-1)).toEqual({
        date: '2026-04-17',
        messages: 3,
        conversations: 2,
        answers: 3,
        tokens: 360,
        violations: 4,
      });
      expect(history.totals).toEqual({ messages: 3, conversations: 2, answers: 3, tokens: 360, violations: 4 });

      const weekly = successEnvelope(LimitTrendsSchema).parse(
        (await getJson(h, '/api/v1/limits/trends', dana.auth)).body,
      ).data;
      expect(weekly.period_type).toBe('weekly');
      expect(weekly.periods.map((p) => [p.start_date, p.end_date, p.messages])).toEqual([
        ['2026-03-23', '2026-03-29', 0],
        ['2026-03-30', '2026-04-05', 0],
        ['2026-04-06', '2026-04-12', 0],
        ['2026-04-13', '2026-04-17', 3],
      ]);
      expect(weekly.periods.at(-1)).toMatchObject({ label: 'Week of 2026-04-13', violations: 4, change_percent: null });
      const monthly = (await getJson(h, '/api/v1/limits/trends?period_type=monthly&periods=2', dana.auth)).body.data;
      expect(monthly.periods.map((p: { label: string }) => p.label)).toEqual(['2026-03', '2026-04']);
    });

    it("isolates owners: Noa's limits pages show none of Dana's refusals or usage", async () => {
      expect((await getJson(h, '/api/v1/limits/violations', noa.auth)).body.data).toEqual({
        days: 7,
        violations: [],
        total: 0,
        by_type: [],
      });
      expect((await getJson(h, '/api/v1/limits/usage/history?days=1', noa.auth)).body.data.totals).toEqual({
        messages: 0,
        conversations: 0,
        answers: 0,
        tokens: 0,
        violations: 0,
      });
      expect((await getJson(h, '/api/v1/limits/analytics', noa.auth)).body.data.quick_stats).toEqual({
        total_assistants: 1,
        total_conversations: 0,
        storage_used_mb: 0,
        messages_this_month: 0,
        violations_last_7_days: 0,
      });
      const noaStatus = (await getJson(h, '/api/v1/limits/status', noa.auth)).body.data;
      expect(noaStatus.limits_summary.chat.total_messages).toMatchObject({ used: 0, state: 'ok' });
      expect(noaStatus.warnings.map((w: { type: string }) => w.type)).toEqual(['assistants']);
      for (const url of [
        '/api/v1/limits/limits',
        '/api/v1/limits/status',
        '/api/v1/limits/usage/history',
        '/api/v1/limits/violations',
        '/api/v1/limits/trends',
        '/api/v1/limits/analytics',
      ]) {
        expect((await getJson(h, url)).status, url).toBe(401);
      }
    });
  },
);
