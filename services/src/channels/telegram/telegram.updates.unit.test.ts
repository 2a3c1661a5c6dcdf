import { describe, expect, it } from 'vitest';
import { telegramTextUpdate } from '../testing/channel-stand-ins.js';
import { readTelegramUpdate } from './telegram.updates.js';

describe('Telegram updates', () => {
  it("reads a private chat's text, keyed by the update id", () => {
    expect(readTelegramUpdate(telegramTextUpdate(77, 501, 'When are you open?', 'Noa'))).toEqual({
      message: {
        deliveryKey: 'u77',
        chatId: '501',
        senderName: 'Noa',
        externalMessageId: '1077',
        text: 'When are you open?',
      },
    });
  });

  it('ignores groups, bots, non-text messages and what is not an update', () => {
    const group = telegramTextUpdate(1, -100, 'hi');
    group.message.chat.type = 'group';
    expect(readTelegramUpdate(group)).toEqual({ ignored: 'a group chat' });
    const bot = telegramTextUpdate(2, 5, 'hi');
    (bot.message.from as { is_bot: boolean }).is_bot = true;
    expect(readTelegramUpdate(bot)).toEqual({ ignored: 'a bot wrote it' });
    const sticker = telegramTextUpdate(3, 5, '');
    expect(readTelegramUpdate(sticker)).toEqual({ ignored: 'no text' });
    expect(readTelegramUpdate({ update_id: 4, edited_message: {} })).toEqual({ ignored: 'not a message' });
    expect(readTelegramUpdate({ hello: 'world' })).toEqual({ ignored: 'not a Telegram update' });
  });
});
