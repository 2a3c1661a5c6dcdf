/**
 * Whose personal data an event holds: the "data subject" whose key encrypts it (docs/privacy.md).
 *
 * - `account`: an owner's account. Erasing it erases everything the account owns too: its own
 *   conversations, its assistants' visitor and channel conversations, its channel customers.
 * - `thread`: one conversation (a visitor's through a share link or the widget, an owner's own, or a
 *   channel customer's thread): its messages, title, feedback comments, contact name.
 * - `channel_contact`: a channel customer as one integration knows them (Telegram chat id, WhatsApp
 *   number, Instagram-scoped id): what arrived through the channel's webhook, and the threads it opened.
 */
export type DataSubject =
  | { kind: 'account'; accountId: string }
  | { kind: 'thread'; threadId: string }
  | {
      kind: 'channel_contact';
      integrationId: string;
      chatId: string;
      /** The contact's conversations, when the caller knows them; the ones the channels read model knows are added. */
      threadIds?: readonly string[];
    };

export type ErasureReason = 'account_deleted' | 'visitor_request' | 'retention' | 'inactive_account';

export interface ErasureCause {
  reason: ErasureReason;
  /** Who asked: `account:<id>`, `visitor:<session hash>`, `system:<job>` (recorded on the erasure event). */
  actor: string;
}

/**
 * Shreds a subject's personal data: its key (and its dependants' keys) is deleted, a `SubjectErased`
 * event records who, when, why and which subject (never what), and the read models drop or blank the
 * subject's personal fields. Idempotent: erasing an erased subject records nothing new.
 */
export interface SubjectErasure {
  erase(subject: DataSubject, why: ErasureCause): Promise<void>;
}
