import { describe, expect, it } from 'vitest';
import { instagramTextDelivery, whatsappStatusDelivery, whatsappTextDelivery } from '../testing/channel-stand-ins.js';
import { readInstagramDelivery, readWhatsAppDelivery } from './meta.webhooks.js';

const now = new Date('2026-11-23T10:00:00Z');

describe('WhatsApp deliveries', () => {
  it("reads a customer's text with the profile name, keyed by Meta's message id", () => {
    const read = readWhatsAppDelivery(
      whatsappTextDelivery('111', '972501234567', 'wamid.A1', 'שלום, מה המחיר?', 'Yael'),
      '111',
      now,
    );
    expect(read).toEqual({
      messages: [
        {
          deliveryKey: 'mwamid.A1',
          chatId: '972501234567',
          senderName: 'Yael',
          externalMessageId: 'wamid.A1',
          text: 'שלום, מה המחיר?',
        },
      ],
      statuses: [],
    });
  });

  it('reads statuses with their time and error, and leaves out another number, non-text messages and NULs', () => {
    const failed = readWhatsAppDelivery(
      whatsappStatusDelivery('111', 'wamid.OUT', 'failed', '972501234567'),
      '111',
      now,
    )!;
    expect(failed.statuses[0]).toMatchObject({
      externalMessageId: 'wamid.OUT',
      status: 'failed',
      error: 'Re-engagement message',
      recipientId: '972501234567',
    });
    expect(readWhatsAppDelivery(whatsappTextDelivery('222', '9725', 'wamid.B', 'hi'), '111', now)).toEqual({
      messages: [],
      statuses: [],
    });
    const image = whatsappTextDelivery('111', '9725', 'wamid.C', 'x');
    const value = image.entry[0]!.changes[0]!.value as { messages: { type: string; text?: unknown }[] };
    value.messages[0]!.type = 'image';
    delete value.messages[0]!.text;
    expect(readWhatsAppDelivery(image, '111', now)!.messages).toEqual([]);
    expect(
      readWhatsAppDelivery(whatsappTextDelivery('111', '9725', 'wamid.D', 'a\u0000b\ud800'), '111', now)!.messages[0]!
        .text,
    ).toBe('ab\ufffd');
    expect(readWhatsAppDelivery({ object: 'page', entry: [] }, '111', now)).toBeUndefined();
  });
});

describe('Instagram deliveries', () => {
  it("reads customers' texts and leaves out echoes of the account's own messages", () => {
    const delivery = instagramTextDelivery('178', '9001', 'mid.1', 'Price?');
    const echo = instagramTextDelivery('178', '178', 'mid.2', 'Our answer');
    (echo.entry[0]!.messaging[0]!.message as { is_echo?: boolean }).is_echo = true;
    expect(readInstagramDelivery(delivery, ['178'], now)!.messages).toEqual([
      { deliveryKey: 'mmid.1', chatId: '9001', senderName: null, externalMessageId: 'mid.1', text: 'Price?' },
    ]);
    expect(readInstagramDelivery(echo, ['178'], now)!.messages).toEqual([]);
    expect(readInstagramDelivery(delivery, ['other'], now)!.messages).toEqual([]);
  });
});
