import { chatMessages, streamIds } from '@kesher/contracts';
import { hashSession } from '../../chat/index.js';
import { threadDecider } from '../../domain/thread/thread.decider.js';
import { aggregateStream } from '../../platform/commands/aggregate-stream.js';
import { DomainError } from '../../platform/commands/decider.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import type { SecurityLog } from '../security-log/security-log.js';
import type { SubjectErasure } from '../subject-erasure.port.js';

/**
 * "Delete this conversation" in the visitor's chat (share link, widget): the visitor proves the
 * conversation is theirs with the session token the chat holds — the same proof every public chat call
 * asks — and the conversation is erased (crypto-shredded: its messages, title and feedback comments can
 * never be read again, by the owner either). The owner's security log notes that a visitor deleted a
 * conversation, with its id and channel only.
 *
 * Authorised from the thread's own stream, not from the read model: a conversation started a moment ago
 * is deletable at once, and a token that does not hold the conversation is 404, exactly as reading it
 * would be — whether the conversation exists is not told to someone who does not hold it.
 */
export function createVisitorConversationDeletion(deps: {
  eventStore: EventStore;
  erasure: SubjectErasure;
  securityLog: SecurityLog;
}) {
  return {
    async delete(sessionToken: string, threadId: string): Promise<void> {
      const sessionHash = hashSession(sessionToken);
      const { state } = await aggregateStream(deps.eventStore, threadDecider, streamIds.thread(threadId));
      if (state.status === 'none' || state.thread.visitorSessionHash !== sessionHash || state.thread.contact)
        throw new DomainError('not_found', chatMessages.threadNotFound);
      await deps.erasure.erase(
        { kind: 'thread', threadId },
        { reason: 'visitor_request', actor: `visitor:${sessionHash}` },
      );
      await deps.securityLog.record(state.thread.assistantOwnerId, {
        kind: 'conversation_erased',
        actor: 'visitor',
        detail: { thread_id: threadId, channel: state.thread.channel, assistant_id: state.thread.assistantId },
      });
    },
  };
}

export type VisitorConversationDeletion = ReturnType<typeof createVisitorConversationDeletion>;
