import { plans } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerProviderError, type AnswerProvider } from '../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { postgresAvailability } from '../testing/test-database.js';
import { startChannelStandIns, telegramTextUpdate, type ChannelStandIns } from './testing/channel-stand-ins.js';
import { freePort } from '../testing/processes.js';

const gate = await postgresAvailability();
const within = { timeout: 30_000, interval: 50 };

/** A model that fails on "fail" and otherwise answers at length (longer than Telegram's 4096 characters). */
const provider: AnswerProvider = {
  name: 'scripted',
  async *answer(request) {
    if (request.question.includes('fail'))
      throw new AnswerProviderError('The AI service had an error. Please try again.');
    for (let i = 0; i < 60; i++)
      yield {
        kind: 'text',
        text: `Paragraph ${i}: our sourdough rests for two days before it is baked in a stone oven.\n\n`,
      };
  },
};

describe.skipIf(!gate.available)(
  `channels when things go wrong${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let standIns: ChannelStandIns;
    let bot: { token: string };

    beforeAll(async () => {
      standIns = await startChannelStandIns();
      const port = await freePort();
      h = await createApiHarness({
        env: { TELEGRAM_API_URL: standIns.urls.telegram, PUBLIC_URL: `http://127.0.0.1:${port}` },
        answerProvider: provider,
        planOf: async () => plans.PRO,
      });
      await h.app.listen({ port, host: '127.0.0.1' });
      const owner = await h.owner();
      const id = (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/assistants/',
          headers: { authorization: owner.authorization },
          payload: { name: 'Bakery', description: 'x', instructions: 'x' },
        })
      ).json().assistant_id;
      bot = standIns.addBot('failing_bot');
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/assistants/${id}/telegram/setup`,
            headers: { authorization: owner.authorization },
            payload: { bot_token: bot.token },
          })
        ).statusCode,
      ).toBe(200);
    }, 120_000);
    afterAll(async () => {
      await h?.close();
      await standIns?.close();
    });

    it("a failed run sends §8's apology instead of silence", async () => {
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(1, 71, 'please fail'));
      const [apology] = await standIns.waitForSent(1, '71');
      expect(apology!.text).toBe('Sorry, I encountered an error processing your request. Please try again.');
    });

    it("a long answer is split at Telegram's 4096 characters, and a 429 with retry_after is waited out", async () => {
      standIns.throttleNext(1, 1);
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(2, 72, 'Tell me about the bread'));
      await expect.poll(() => standIns.sent.filter((m) => m.to === '72').length, within).toBeGreaterThanOrEqual(2);
      const parts = standIns.sent.filter((m) => m.to === '72');
      expect(parts.every((p) => [...p.text].length <= 4096)).toBe(true);
      expect(parts.map((p) => p.text).join('\n\n')).toContain('Paragraph 59');
    });

    it("a chat that blocked the bot: the reply is recorded as failed with Telegram's reason", async () => {
      standIns.block('73');
      await standIns.telegramUpdate(bot.token, telegramTextUpdate(3, 73, 'Hello'));
      await expect
        .poll(
          async () =>
            (
              await h.platform.sql.query<{ status: string; error: string }>(
                `SELECT status, error FROM channel_replies WHERE chat_id = '73'`,
              )
            ).rows[0],
          within,
        )
        .toEqual({ status: 'failed', error: 'Forbidden: bot was blocked by the user' });
    });
  },
);
