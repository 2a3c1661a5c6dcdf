import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config/config.js';
import { conversationKeptUntil, monthsBefore, retentionPolicyOf } from './retention-policy.js';

describe('the retention policy', () => {
  it("has the spec's periods by default, each a setting", () => {
    expect(retentionPolicyOf(loadConfig({}))).toEqual({
      conversationDays: 90,
      analyticsMonths: 24,
      securityLogMonths: 12,
      paymentYears: 7,
      inactiveAccountMonths: 24,
      inactiveNoticeDays: 30,
    });
    expect(
      retentionPolicyOf(loadConfig({ RETENTION_CONVERSATION_DAYS: '30', RETENTION_PAYMENT_YEARS: '10' })),
    ).toMatchObject({ conversationDays: 30, paymentYears: 10 });
    expect(() => loadConfig({ RETENTION_CONVERSATION_DAYS: '0' })).toThrow();
  });
  it('counts months on the calendar and keeps a conversation 90 days after its last message', () => {
    expect(monthsBefore(new Date('2028-03-31T12:00:00Z'), 24).toISOString()).toBe('2026-03-31T12:00:00.000Z');
    expect(conversationKeptUntil(new Date('2026-01-01T10:00:00Z'), { conversationDays: 90 }).toISOString()).toBe(
      '2026-04-01T10:00:00.000Z',
    );
  });
});
