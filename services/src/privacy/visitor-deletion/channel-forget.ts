import type { ChannelMessageReceived } from '@kesher/contracts';
import type { SqlExecutor } from '../../platform/sql/sql.port.js';
import type { SecurityLog } from '../security-log/security-log.js';
import type { SubjectErasure } from '../subject-erasure.port.js';

/**
 * A channel customer (Telegram, WhatsApp, Instagram) erasing what the owner's assistant holds about them:
 * they write `/forget` or "delete my data" (or its Hebrew), are asked to confirm, and on "yes" ("כן")
 * within the confirmation window their contact is erased — the chat id, the name the channel gave, every
 * message they sent and every conversation it opened (SubjectErasure, `channel_contact`).
 *
 * Neither the request nor the confirmation reaches the assistant as a question, and neither is counted as
 * a message of the conversation. A pending request lives in its own small table (keyed by integration
 * and chat), so any channels worker sees the confirmation whichever took the request; the delivery that
 * confirmed it is kept, so the same confirmation delivered again is answered as done, not as a question.
 */

/** The words that ask; compared trimmed, case-folded, without trailing punctuation. */
const ASKS = new Set([
  '/forget',
  'forget me',
  'delete my data',
  '/deletemydata',
  'מחק את המידע שלי',
  'מחקו את המידע שלי',
  'מחק את הנתונים שלי',
  '/שכח',
]);
const CONFIRMS = new Set(['yes', 'y', 'confirm', 'כן', 'אישור', 'מאשר', 'מאשרת']);

const normalised = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[.!?׃]+$/u, '')
    .replace(/\s+/g, ' ');

export const isForgetRequest = (text: string) => ASKS.has(normalised(text));
export const isConfirmation = (text: string) => CONFIRMS.has(normalised(text));

const hebrew = (text: string) => /[\u0590-\u05FF]/.test(text);

export const forgetTexts = {
  ask: {
    en: 'Delete everything this assistant holds about you — your messages and conversations? This cannot be undone. Reply YES within 10 minutes to confirm.',
    he: 'למחוק את כל מה שהעוזר שומר עליך — ההודעות והשיחות שלך? לא ניתן לבטל זאת. השיבו "כן" תוך 10 דקות לאישור.',
  },
  done: {
    en: 'Done: your messages and conversations with this assistant have been deleted.',
    he: 'בוצע: ההודעות והשיחות שלך עם העוזר נמחקו.',
  },
} as const;

export interface ChannelForgetDeps {
  sql: SqlExecutor;
  erasure: SubjectErasure;
  securityLog: SecurityLog;
  clock?: () => Date;
  /** How long a request waits for its confirmation (default 10 minutes). */
  confirmWithinMs?: number;
}

export function createChannelForget(deps: ChannelForgetDeps) {
  const clock = deps.clock ?? (() => new Date());
  const window = deps.confirmWithinMs ?? 10 * 60_000;

  return {
    /**
     * Handles the customer's message if it is a request or its confirmation: answers the text to send
     * back, or undefined when the message is an ordinary one for the assistant.
     */
    async handle(
      received: Pick<ChannelMessageReceived, 'integrationId' | 'chatId' | 'ownerId' | 'kind' | 'text'>,
      deliveryId?: string,
    ): Promise<string | undefined> {
      const language = hebrew(received.text) ? 'he' : 'en';
      const now = clock();
      if (isForgetRequest(received.text)) {
        await deps.sql.query(
          `INSERT INTO privacy_forget_requests (integration_id, chat_id, requested_at, confirmed_by) VALUES ($1, $2, $3, NULL)
           ON CONFLICT (integration_id, chat_id) DO UPDATE SET requested_at = EXCLUDED.requested_at, confirmed_by = NULL`,
          [received.integrationId, received.chatId, now.toISOString()],
        );
        return forgetTexts.ask[language];
      }
      if (!isConfirmation(received.text)) return undefined;
      const confirmation = deliveryId ?? `${now.getTime()}-${Math.random()}`;
      // A request still open within its window, or the one this very delivery confirmed before (a redelivery).
      const { rows } = await deps.sql.query<{ confirmed_by: string | null }>(
        `SELECT confirmed_by FROM privacy_forget_requests
         WHERE integration_id = $1 AND chat_id = $2 AND ((confirmed_by IS NULL AND requested_at >= $3) OR confirmed_by = $4)`,
        [received.integrationId, received.chatId, new Date(now.getTime() - window).toISOString(), confirmation],
      );
      if (rows.length === 0) return undefined;
      // Erased before the request is marked done: a failure leaves it open, and the bus's retry erases
      // (erasure is idempotent, so two workers erasing at once do no harm either).
      await deps.erasure.erase(
        { kind: 'channel_contact', integrationId: received.integrationId, chatId: received.chatId },
        { reason: 'visitor_request', actor: `channel_customer:${received.kind}` },
      );
      const marked = await deps.sql.query(
        `UPDATE privacy_forget_requests SET confirmed_by = $3 WHERE integration_id = $1 AND chat_id = $2 AND confirmed_by IS NULL RETURNING 1`,
        [received.integrationId, received.chatId, confirmation],
      );
      if (marked.rows.length > 0) {
        await deps.securityLog.record(received.ownerId, {
          kind: 'channel_contact_erased',
          actor: 'channel_customer',
          detail: { channel: received.kind, integration_id: received.integrationId },
        });
      }
      return forgetTexts.done[language];
    },
  };
}

export type ChannelForget = ReturnType<typeof createChannelForget>;
