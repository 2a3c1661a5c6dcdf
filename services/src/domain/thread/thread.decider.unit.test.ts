import { chatMessages, type ThreadStarted } from '@kesher/contracts';
import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { threadDecider, type ThreadEvent } from './thread.decider.js';

const spec = deciderSpec(threadDecider);
const owner = { ownerId: 'owner-1' };
const thread: ThreadStarted = {
  threadId: 't1',
  assistantId: 'a1',
  assistantOwnerId: 'owner-1',
  ownerId: 'owner-1',
  visitorSessionHash: null,
  isPublic: false,
  channel: 'app',
};
const started: ThreadEvent = { type: 'ThreadStarted', data: thread };
const question: ThreadEvent = {
  type: 'MessagePosted',
  data: {
    messageId: 'm1',
    threadId: 't1',
    role: 'user',
    text: 'When do you open?',
    channel: 'app',
    language: 'en',
    runId: null,
  },
};
const requested: ThreadEvent = {
  type: 'RunRequested',
  data: { runId: 'r1', threadId: 't1', assistantId: 'a1', deadlineAt: '2026-01-01T00:01:00.000Z' },
};
const runStarted: ThreadEvent = { type: 'RunStarted', data: { runId: 'r1', threadId: 't1', provider: 'builtin' } };
const completion = {
  runId: 'r1',
  messageId: 'm2',
  responseMs: 12,
  promptTokens: 40,
  completionTokens: 9,
  sources: [],
  referredUrl: null,
};
const answer: ThreadEvent = {
  type: 'MessagePosted',
  data: {
    messageId: 'm2',
    threadId: 't1',
    role: 'assistant',
    text: 'At nine.',
    channel: 'app',
    language: 'en',
    runId: 'r1',
  },
};
const completed: ThreadEvent = { type: 'RunCompleted', data: { ...completion, threadId: 't1' } };
const complete = {
  type: 'CompleteRun' as const,
  data: { ...completion, text: 'At nine.', language: 'en' as const, provider: 'builtin' },
};
const post = (chatLimit = 100) => ({
  type: 'PostUserMessage' as const,
  data: { requester: owner, messageId: 'm1', text: 'When do you open?', language: 'en' as const, chatLimit },
});
const requestRun = (now: string, runId = 'r1') => ({
  type: 'RequestRun' as const,
  data: { requester: owner, runId, assistantId: 'a1', deadlineAt: '2026-01-01T00:01:00.000Z', now },
});

describe('thread decider: conversation', () => {
  it('starts a thread once', () => {
    spec.given([]).when({ type: 'StartThread', data: thread }).then([started]);
    spec.given([started]).when({ type: 'StartThread', data: thread }).thenThrows(DomainError);
  });

  it("posts the owner's message with the thread's channel", () => {
    spec.given([started]).when(post()).then([question]);
  });

  it('refuses a message on a deleted, missing or foreign thread as not found', () => {
    const deleted: ThreadEvent = { type: 'ThreadDeleted', data: { threadId: 't1' } };
    spec.given([started, deleted]).when(post()).thenThrows(DomainError, chatMessages.threadNotFound);
    spec.given([]).when(post()).thenThrows(DomainError, chatMessages.threadNotFound);
    spec
      .given([started])
      .when({ ...post(), data: { ...post().data, requester: { ownerId: 'owner-2' } } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
  });

  it('lets a visitor use only the thread of the session it holds', () => {
    const visitorThread: ThreadEvent = {
      type: 'ThreadStarted',
      data: { ...thread, ownerId: null, visitorSessionHash: 'a'.repeat(64), isPublic: true, channel: 'embed' },
    };
    const asVisitor = (hash: string) => ({
      ...post(),
      data: { ...post().data, requester: { visitorSessionHash: hash } },
    });
    spec
      .given([visitorThread])
      .when(asVisitor('a'.repeat(64)))
      .then([{ ...question, data: { ...question.data, channel: 'embed' } } as ThreadEvent]);
    spec
      .given([visitorThread])
      .when(asVisitor('b'.repeat(64)))
      .thenThrows(DomainError, chatMessages.threadNotFound);
    // The assistant's owner reads it (Chat History) but does not write in it; any other owner does not see it.
    spec.given([visitorThread]).when(post()).thenThrows(DomainError, chatMessages.visitorThreadReadOnly);
    spec
      .given([visitorThread])
      .when({ ...post(), data: { ...post().data, requester: { ownerId: 'owner-2' } } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
  });

  it("keeps a visitor's thread writable only through the share link it was opened with: rotated or revoked, it is closed", () => {
    // Given a visitor's thread opened through the link whose token hashes to c…c…
    const linked: ThreadEvent = {
      type: 'ThreadStarted',
      data: {
        ...thread,
        ownerId: null,
        visitorSessionHash: 'a'.repeat(64),
        isPublic: true,
        channel: 'public_link',
        shareTokenHash: 'c'.repeat(64),
      },
    };
    const asVisitor = (shareTokenHash: string | null) => ({
      ...post(),
      data: { ...post().data, requester: { visitorSessionHash: 'a'.repeat(64), shareTokenHash } },
    });
    const posted = { ...question, data: { ...question.data, channel: 'public_link' } } as ThreadEvent;
    // …when the visitor writes while that link is the assistant's current one, then the message is recorded;
    spec
      .given([linked])
      .when(asVisitor('c'.repeat(64)))
      .then([posted]);
    // when the owner has rotated the link (another token) or revoked it (none), then nothing more is written.
    spec
      .given([linked])
      .when(asVisitor('d'.repeat(64)))
      .thenThrows(DomainError, chatMessages.invalidShareLink);
    spec.given([linked]).when(asVisitor(null)).thenThrows(DomainError, chatMessages.invalidShareLink);
    const run = {
      type: 'RequestRun' as const,
      data: {
        requester: { visitorSessionHash: 'a'.repeat(64), shareTokenHash: 'd'.repeat(64) },
        runId: 'r1',
        assistantId: 'a1',
        deadlineAt: '2026-01-01T00:01:00.000Z',
        now: '2026-01-01T00:00:00.000Z',
      },
    };
    spec.given([linked, posted]).when(run).thenThrows(DomainError, chatMessages.invalidShareLink);
    // Given a thread recorded before links were noted (no hash), then it stays writable whatever the link now is.
    const unlinked: ThreadEvent = {
      type: 'ThreadStarted',
      data: { ...thread, ownerId: null, visitorSessionHash: 'a'.repeat(64), isPublic: true, channel: 'public_link' },
    };
    spec
      .given([unlinked])
      .when(asVisitor('d'.repeat(64)))
      .then([posted]);
  });

  it("lets the assistant's owner rename and delete a visitor's conversation, but not run or rate in it", () => {
    const visitorThread: ThreadEvent = {
      type: 'ThreadStarted',
      data: { ...thread, ownerId: null, visitorSessionHash: 'a'.repeat(64), isPublic: true, channel: 'public_link' },
    };
    spec
      .given([visitorThread])
      .when({ type: 'RenameThread', data: { requester: owner, title: 'Challah question' } })
      .then([{ type: 'ThreadRenamed', data: { threadId: 't1', title: 'Challah question' } }]);
    spec
      .given([visitorThread])
      .when({ type: 'DeleteThread', data: { requester: owner } })
      .then([{ type: 'ThreadDeleted', data: { threadId: 't1' } }]);
    spec
      .given([visitorThread])
      .when(requestRun('2026-01-01T00:00:00.000Z'))
      .thenThrows(DomainError, chatMessages.visitorThreadReadOnly);
    const stranger = { ownerId: 'owner-2' };
    spec
      .given([visitorThread])
      .when({ type: 'DeleteThread', data: { requester: stranger } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
    spec
      .given([visitorThread])
      .when({ type: 'RenameThread', data: { requester: stranger, title: 'x' } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
  });

  it("enforces the assistant's chat limit with a clear message", () => {
    // A new message (its own id): the same id again would be a redelivery, recorded once and never refused.
    spec
      .given([started, question])
      .when({ ...post(1), data: { ...post(1).data, messageId: 'm2' } })
      .thenThrows(DomainError, chatMessages.chatLimitReached(1));
  });

  it('renames with a trimmed title and deletes', () => {
    spec
      .given([started])
      .when({ type: 'RenameThread', data: { requester: owner, title: '  Opening hours ' } })
      .then([{ type: 'ThreadRenamed', data: { threadId: 't1', title: 'Opening hours' } }]);
    spec
      .given([started])
      .when({ type: 'RenameThread', data: { requester: owner, title: '   ' } })
      .then([]);
    spec
      .given([started])
      .when({ type: 'DeleteThread', data: { requester: owner } })
      .then([{ type: 'ThreadDeleted', data: { threadId: 't1' } }]);
  });
});

describe('thread decider: runs', () => {
  it('requests a run, one active run per thread', () => {
    spec.given([started, question]).when(requestRun('2026-01-01T00:00:00.000Z')).then([requested]);
    spec
      .given([started, question, requested])
      .when(requestRun('2026-01-01T00:00:30.000Z', 'r2'))
      .thenThrows(DomainError, chatMessages.runActive);
  });

  it('expires an overdue run when the next one is requested', () => {
    spec
      .given([started, question, requested])
      .when({
        ...requestRun('2026-01-01T00:02:00.000Z', 'r2'),
        data: { ...requestRun('', 'r2').data, now: '2026-01-01T00:02:00.000Z', deadlineAt: '2026-01-01T00:03:00.000Z' },
      })
      .then([
        { type: 'RunExpired', data: { runId: 'r1', threadId: 't1' } },
        {
          type: 'RunRequested',
          data: { runId: 'r2', threadId: 't1', assistantId: 'a1', deadlineAt: '2026-01-01T00:03:00.000Z' },
        },
      ]);
  });

  it('records the start once', () => {
    spec
      .given([started, requested])
      .when({ type: 'StartRun', data: { runId: 'r1', provider: 'builtin' } })
      .then([runStarted]);
    spec
      .given([started, requested, runStarted])
      .when({ type: 'StartRun', data: { runId: 'r1', provider: 'builtin' } })
      .then([]);
  });

  it('completes a run with the assistant message, and never answers twice', () => {
    spec.given([started, question, requested, runStarted]).when(complete).then([answer, completed]);
    // A run answered without its start on the thread (claimed on its output) records the start with the answer.
    spec.given([started, question, requested]).when(complete).then([runStarted, answer, completed]);
    spec.given([started, question, requested, runStarted, answer, completed]).when(complete).then([]);
    spec
      .given([started, question, requested, runStarted, answer, completed])
      .when({ type: 'FailRun', data: { runId: 'r1', error: 'late' } })
      .then([]);
  });

  it('fails a run with its error; a settled run takes no other outcome', () => {
    const failed: ThreadEvent = {
      type: 'RunFailed',
      data: { runId: 'r1', threadId: 't1', error: 'The AI service is unavailable' },
    };
    spec
      .given([started, requested])
      .when({ type: 'FailRun', data: { runId: 'r1', error: 'The AI service is unavailable' } })
      .then([failed]);
    spec.given([started, requested, failed]).when(complete).then([]);
  });

  it('expires a run only after its deadline, and only once', () => {
    const expire = (now: string) => ({ type: 'ExpireRun' as const, data: { runId: 'r1', now } });
    const expired: ThreadEvent = { type: 'RunExpired', data: { runId: 'r1', threadId: 't1' } };
    spec.given([started, requested]).when(expire('2026-01-01T00:00:59.000Z')).then([]);
    spec.given([started, requested]).when(expire('2026-01-01T00:01:00.000Z')).then([expired]);
    spec.given([started, requested, expired]).when(expire('2026-01-01T00:05:00.000Z')).then([]);
    spec.given([started, requested, expired]).when(complete).then([]);
  });

  it('ignores outcomes for runs it never saw', () => {
    spec.given([started]).when(complete).then([]);
    spec
      .given([])
      .when({ type: 'FailRun', data: { runId: 'r1', error: 'x' } })
      .then([]);
  });
});

describe('thread decider: feedback', () => {
  const history = [started, question, requested, answer, completed];
  const feedback = (rating: 'like' | 'dislike', comment: string | null = null) => ({
    type: 'GiveFeedback' as const,
    data: { requester: owner, messageId: 'm2', rating, comment, authorKey: 'account:owner-1', source: 'chat' },
  });
  const given = (rating: 'like' | 'dislike', comment: string | null = null): ThreadEvent => ({
    type: 'FeedbackGiven',
    data: {
      messageId: 'm2',
      threadId: 't1',
      assistantId: 'a1',
      rating,
      comment,
      authorKey: 'account:owner-1',
      source: 'chat',
      isPublic: false,
    },
  });

  it('records a rating on a message of the thread', () => {
    spec
      .given(history)
      .when(feedback('like'))
      .then([given('like')]);
  });

  it('a second rating by the same author changes the first; a repeat records nothing', () => {
    spec
      .given([...history, given('like')])
      .when(feedback('dislike', 'Too short'))
      .then([given('dislike', 'Too short')]);
    spec
      .given([...history, given('like')])
      .when(feedback('like'))
      .then([]);
  });

  it('refuses feedback on a message that is not in the thread', () => {
    spec
      .given(history)
      .when({ ...feedback('like'), data: { ...feedback('like').data, messageId: 'elsewhere' } })
      .thenThrows(DomainError);
  });
});

describe('takeover (one inbox)', () => {
  const visitorThread: ThreadStarted = {
    ...thread,
    ownerId: null,
    visitorSessionHash: 'a'.repeat(64),
    isPublic: true,
    channel: 'telegram',
    contact: { integrationId: 'i1', chatId: '5', name: 'Noa' },
  };
  const visitorStarted: ThreadEvent = { type: 'ThreadStarted', data: visitorThread };
  const taken: ThreadEvent = { type: 'ThreadTakenOver', data: { threadId: 't1', ownerId: 'owner-1' } };
  const visitor = { visitorSessionHash: 'a'.repeat(64), shareTokenHash: null };

  it("the assistant's owner takes a customer's conversation over and hands it back; repeats decide nothing", () => {
    spec
      .given([visitorStarted])
      .when({ type: 'TakeOverThread', data: { ownerId: 'owner-1' } })
      .then([taken]);
    spec
      .given([visitorStarted, taken])
      .when({ type: 'TakeOverThread', data: { ownerId: 'owner-1' } })
      .then([]);
    spec
      .given([visitorStarted, taken])
      .when({ type: 'HandBackThread', data: { ownerId: 'owner-1' } })
      .then([{ type: 'ThreadHandedBack', data: { threadId: 't1', ownerId: 'owner-1' } }]);
    spec
      .given([visitorStarted])
      .when({ type: 'HandBackThread', data: { ownerId: 'owner-1' } })
      .then([]);
  });

  it("nobody else can, and the owner's own chat has nobody to take over from", () => {
    spec
      .given([visitorStarted])
      .when({ type: 'TakeOverThread', data: { ownerId: 'stranger' } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
    spec
      .given([started])
      .when({ type: 'TakeOverThread', data: { ownerId: 'owner-1' } })
      .thenThrows(DomainError, /customer/);
  });

  it('a taken-over conversation gets no run (409 with why); the customer can still write', () => {
    spec
      .given([visitorStarted, taken])
      .when({
        type: 'RequestRun',
        data: {
          requester: visitor,
          runId: 'r1',
          assistantId: 'a1',
          deadlineAt: '2026-01-01T00:01:00.000Z',
          now: '2026-01-01T00:00:00.000Z',
        },
      })
      .thenThrows(DomainError, /taken over this conversation/);
    spec
      .given([visitorStarted, taken])
      .when({
        type: 'PostUserMessage',
        data: { requester: visitor, messageId: 'm9', text: 'Hello?', language: 'en', chatLimit: 100 },
      })
      .then([
        {
          type: 'MessagePosted',
          data: {
            messageId: 'm9',
            threadId: 't1',
            role: 'user',
            text: 'Hello?',
            channel: 'telegram',
            language: 'en',
            runId: null,
          },
        },
      ]);
  });

  it('the owner replies only in a conversation they took over; the reply is an assistant-side message by the owner', () => {
    const reply = {
      type: 'PostOwnerReply' as const,
      data: { ownerId: 'owner-1', messageId: 'm5', text: 'Dana here', language: 'en' as const },
    };
    spec
      .given([visitorStarted])
      .when(reply)
      .thenThrows(DomainError, 'Take over this conversation before replying in it.');
    spec
      .given([visitorStarted, taken])
      .when(reply)
      .then([
        {
          type: 'MessagePosted',
          data: {
            messageId: 'm5',
            threadId: 't1',
            role: 'assistant',
            text: 'Dana here',
            channel: 'telegram',
            language: 'en',
            runId: null,
            author: 'owner',
          },
        },
      ]);
    spec
      .given([visitorStarted, taken])
      .when({ ...reply, data: { ...reply.data, ownerId: 'stranger' } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
    // A reply delivered again (same message id) is recorded once.
    const replied: ThreadEvent = {
      type: 'MessagePosted',
      data: {
        messageId: 'm5',
        threadId: 't1',
        role: 'assistant',
        text: 'Dana here',
        channel: 'telegram',
        language: 'en',
        runId: null,
        author: 'owner',
      },
    };
    spec.given([visitorStarted, taken, replied]).when(reply).then([]);
  });

  it("an owner chatting in another owner's assistant may read their thread but neither takes it over nor replies as its owner", () => {
    // Given a thread owner-2 started with owner-1's assistant (owner-2 is its participant, not the assistant's owner)…
    const guestChat: ThreadEvent = { type: 'ThreadStarted', data: { ...thread, ownerId: 'owner-2' } };
    // …then taking it over or replying in it as the assistant's owner is answered as if it did not exist.
    spec
      .given([guestChat])
      .when({ type: 'TakeOverThread', data: { ownerId: 'owner-2' } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
    spec
      .given([guestChat])
      .when({ type: 'HandBackThread', data: { ownerId: 'owner-2' } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
    spec
      .given([guestChat, { type: 'ThreadTakenOver', data: { threadId: 't1', ownerId: 'owner-1' } }])
      .when({ type: 'PostOwnerReply', data: { ownerId: 'owner-2', messageId: 'm5', text: 'Hi', language: 'en' } })
      .thenThrows(DomainError, chatMessages.threadNotFound);
  });

  it('a redelivered message or run is recorded once', () => {
    const posted: ThreadEvent = {
      type: 'MessagePosted',
      data: {
        messageId: 'm9',
        threadId: 't1',
        role: 'user',
        text: 'Hello?',
        channel: 'telegram',
        language: 'en',
        runId: null,
      },
    };
    spec
      .given([visitorStarted, posted])
      .when({
        type: 'PostUserMessage',
        data: { requester: visitor, messageId: 'm9', text: 'Hello?', language: 'en', chatLimit: 100 },
      })
      .then([]);
    const requestedRun: ThreadEvent = {
      type: 'RunRequested',
      data: { runId: 'r1', threadId: 't1', assistantId: 'a1', deadlineAt: '2026-01-01T00:01:00.000Z' },
    };
    spec
      .given([visitorStarted, posted, requestedRun])
      .when({
        type: 'RequestRun',
        data: {
          requester: visitor,
          runId: 'r1',
          assistantId: 'a1',
          deadlineAt: '2026-01-01T00:01:00.000Z',
          now: '2026-01-01T00:00:00.000Z',
        },
      })
      .then([]);
  });
});
