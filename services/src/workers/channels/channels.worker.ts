import { createHmac } from 'node:crypto';
import {
  chatMessages,
  detectLanguage,
  parseRedirect,
  streamIds,
  type ChannelConnected,
  type ChannelKind,
  type ChannelMessageReceived,
  type RecordedEvent,
} from '@kesher/contracts';
import {
  type ChannelAdapter,
  ChannelApiError,
  type ChannelSecretsBox,
  type ChatFloodLimit,
  splitText,
} from '../../channels/index.js';
import { channelStreams } from '../../domain/channel-integration/channel-streams.js';
import { channelOutboundDecider } from '../../domain/channel-integration/channel-delivery.decider.js';
import { channelIntegrationDecider } from '../../domain/channel-integration/channel-integration.decider.js';
import {
  hasMessage,
  hasRunUnderway,
  runOf,
  threadDecider,
  type Requester,
  type ThreadCommand,
} from '../../domain/thread/thread.decider.js';
import type { Consumer, MessageBus } from '../../platform/bus/message-bus.port.js';
import { aggregateStream, eventOf } from '../../platform/commands/aggregate-stream.js';
import type { CommandContext, CommandHandler } from '../../platform/commands/command-handler.js';
import { DomainError } from '../../platform/commands/decider.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';
import { fromMessage, topicFor } from '../../platform/bus/relayed-event.js';

export interface ChannelsWorkerDeps {
  bus: MessageBus;
  eventStore: EventStore;
  handle: CommandHandler;
  adapters: Record<ChannelKind, ChannelAdapter>;
  secrets: ChannelSecretsBox;
  /**
   * The key that names a customer's conversation: thread ids and the contact's "session hash" are keyed
   * hashes of (integration, chat), so the worker finds the thread again without a lookup table, and nobody
   * without the key can derive a token that opens it through the public chat routes.
   */
  contactKey: Uint8Array;
  /** The assistant's chat_limit (messages per conversation); undefined when it no longer exists. */
  findAssistant: (assistantId: string) => Promise<{ chatLimit: number } | undefined>;
  floodLimit: ChatFloodLimit;
  /**
   * The plan's monthly message limit of the assistant's owner (customers' messages count like visitors'):
   * over it, the message is not recorded and the customer is told, as a visitor of the web chat is.
   */
  monthlyQuota?: (ownerId: string) => Promise<{ allowed: boolean; limit: number }>;
  /**
   * Whether the owner's plan includes the channel now. Asked for every message, not only when connecting:
   * a subscription cancelled or unpaid since then pauses the channel — the customer's message is neither
   * answered nor counted — until the plan includes it again (the owner sees it paused on Integrations).
   */
  planIncludes?: (ownerId: string, kind: ChannelKind) => Promise<boolean>;
  runDeadlineSeconds: number;
  /**
   * A customer's `/forget` ("delete my data") and its confirmation (privacy/visitor-deletion/channel-forget.ts):
   * answers the text to send back when the message was one of those, which then never reaches the assistant.
   */
  forget?: { handle(received: ChannelMessageReceived, deliveryId: string): Promise<string | undefined> };
  groupIds?: { inbound: string; outbound: string };
  concurrency?: number;
  clock?: () => Date;
  log?: (entry: Record<string, unknown>, message: string) => void;
  onError?: (error: unknown) => void;
}

const CHANNELS: readonly string[] = ['telegram', 'whatsapp', 'instagram'];
/** §8's text for a failed run, sent to the customer instead of silence. */
const RUN_FAILED_TEXT = 'Sorry, I encountered an error processing your request. Please try again.';
/** Telegram's 429 names a wait; one short wait is worth it, a long one is left to the owner to see as failed. */
const MAX_RETRY_AFTER_SECONDS = 5;

/**
 * Turns customers' channel messages into conversations and sends the answers back.
 *
 * In: each `ChannelMessageReceived` (recorded by the webhook) becomes a message in the chat's thread — one
 * thread per customer chat, a new one when the assistant's chat_limit is reached or the owner deleted it —
 * and a run the ai-runner answers, unless the owner took the conversation over or the chat is flooding.
 * Ids are derived from the delivery, so a redelivered bus message records nothing new.
 *
 * Out: each assistant-side `MessagePosted` in a channel thread (an answer, or the owner's reply) is claimed
 * on its own stream and then sent through the channel's adapter, split at the channel's length limit.
 * A failed send is recorded with the channel's reason; nothing is ever sent twice.
 */
export function createChannelsWorker(deps: ChannelsWorkerDeps) {
  const clock = deps.clock ?? (() => new Date());
  const log = deps.log ?? (() => {});
  const consumers: Consumer[] = [];
  /** The current conversation generation per chat, so a long chat does not re-read its old threads. */
  const generations = new Map<string, number>();
  /** Channel conversations this worker started or continued (bounded): thread id → where it leads. */
  const conversations = new Map<string, { assistantId: string; kind: ChannelKind; integrationId: string }>();
  const remember = (threadId: string, facts: { assistantId: string; kind: ChannelKind; integrationId: string }) => {
    conversations.delete(threadId);
    conversations.set(threadId, facts);
    if (conversations.size > 50_000) conversations.delete(conversations.keys().next().value!);
  };

  const keyed = (text: string) => createHmac('sha256', deps.contactKey).update(text).digest('hex');
  const threadIdFor = (integrationId: string, chatId: string, generation: number) =>
    `thread_${keyed(`thread|${integrationId}|${chatId}|${generation}`).slice(0, 32)}`;
  const context = (trigger: RecordedEvent): CommandContext => ({
    actor: { kind: 'system', id: 'channels' },
    correlationId: trigger.metadata.correlationId,
    causationId: trigger.metadata.eventId,
    now: clock(),
  });
  const readThread = (threadId: string) => aggregateStream(deps.eventStore, threadDecider, streamIds.thread(threadId));

  async function liveIntegration(assistantId: string, kind: ChannelKind, integrationId: string) {
    const { state } = await aggregateStream(
      deps.eventStore,
      channelIntegrationDecider,
      channelStreams.integration(assistantId, kind),
    );
    return state.status === 'connected' && state.integration.integrationId === integrationId
      ? state.integration
      : undefined;
  }

  /** The chat's conversation with room for `messageId`: the current one, or the next (not yet started). */
  async function conversationOf(received: ChannelMessageReceived, chatLimit: number, messageId: string) {
    const chatKey = `${received.integrationId}|${received.chatId}`;
    for (let generation = generations.get(chatKey) ?? 0; generation < 10_000; generation++) {
      const threadId = threadIdFor(received.integrationId, received.chatId, generation);
      const { state } = await readThread(threadId);
      if (
        state.status === 'none' ||
        (state.status === 'open' && (hasMessage(state, messageId) || state.userMessages < chatLimit))
      ) {
        generations.set(chatKey, generation);
        return { threadId, isNew: state.status === 'none' };
      }
    }
    throw new Error(`no room for a conversation with chat ${received.chatId}`);
  }

  /** Asked once per conversation, and only of channels whose deliveries carry no name; a refusal leaves it unnamed. */
  async function profileName(integration: ChannelConnected, chatId: string): Promise<string | null> {
    const adapter = deps.adapters[integration.account.kind];
    if (!adapter.profileName) return null;
    try {
      const name = await adapter.profileName(
        integration.account,
        deps.secrets.open(integration.integrationId, integration.sealedSecrets),
        chatId,
      );
      return name ? name.slice(0, 200) : null;
    } catch (error) {
      log(
        {
          integrationId: integration.integrationId,
          chatId,
          reason: error instanceof Error ? error.message : String(error),
        },
        'customer profile not read',
      );
      return null;
    }
  }

  const runConflict = (error: unknown) => error instanceof DomainError && error.kind === 'conflict';

  async function requestRun(
    trigger: RecordedEvent,
    threadId: string,
    runId: string,
    assistantId: string,
    requester: Requester,
  ) {
    const now = clock();
    // Still answering the previous message (answered next, see followUp), or the owner took it over: nothing to do.
    await deps.handle(
      threadDecider,
      streamIds.thread(threadId),
      {
        type: 'RequestRun',
        data: {
          requester,
          runId,
          assistantId,
          deadlineAt: new Date(now.getTime() + deps.runDeadlineSeconds * 1000).toISOString(),
          now: now.toISOString(),
        },
      },
      context(trigger),
      { tolerate: runConflict },
    );
  }

  async function receive(trigger: RecordedEvent, received: ChannelMessageReceived) {
    const where = { integrationId: received.integrationId, kind: received.kind, chatId: received.chatId };
    const [integration, assistant, quota, included] = await Promise.all([
      liveIntegration(received.assistantId, received.kind, received.integrationId),
      deps.findAssistant(received.assistantId),
      deps.monthlyQuota?.(received.ownerId),
      deps.planIncludes?.(received.ownerId, received.kind),
    ]);
    if (!integration) return log(where, 'channel message ignored: the integration is disconnected');
    // Erasing one's own data does not depend on the assistant or the owner's plan: asked before either is checked.
    const forgetReply = await deps.forget?.handle(received, trigger.streamId);
    if (forgetReply !== undefined)
      return sendOnce(
        trigger,
        `forget_${keyed(`forget|${trigger.streamId}`).slice(0, 32)}`,
        null,
        integration,
        received.chatId,
        forgetReply,
        'assistant',
      );
    if (!assistant) return log(where, 'channel message ignored: the assistant no longer exists');
    if (included === false)
      return log(where, "channel message not answered: the owner's plan no longer includes this channel (paused)");
    if (quota && !quota.allowed) {
      log(where, "channel message refused: the plan's monthly message limit is reached");
      // A customer is a visitor: the upgrade text is for the owner (their dashboard and limits page say it).
      return sendOnce(
        trigger,
        `limit_${keyed(`limit|${trigger.streamId}`).slice(0, 32)}`,
        null,
        integration,
        received.chatId,
        chatMessages.assistantUnavailable,
        'assistant',
      );
    }
    const contactHash = keyed(`contact|${received.integrationId}|${received.chatId}`);
    const requester: Requester = { visitorSessionHash: contactHash, shareTokenHash: null };
    const messageId = `msg_${keyed(`message|${trigger.streamId}`).slice(0, 32)}`;
    const runId = `run_${keyed(`run|${messageId}`).slice(0, 32)}`;
    const { threadId, isNew } = await conversationOf(received, assistant.chatLimit, messageId);
    remember(threadId, {
      assistantId: received.assistantId,
      kind: received.kind,
      integrationId: received.integrationId,
    });
    const contactName = received.senderName ?? (isNew ? await profileName(integration, received.chatId) : null);
    const now = clock();
    // The flood guard is shared by every worker (Postgres), so its token is taken before the write (the
    // sequence's steps do not wait); a message that is then not answered after all gives it back.
    const chatKey = `${received.integrationId}|${received.chatId}`;
    const notFlooding = await deps.floodLimit.take(chatKey);
    let answering = false;
    // Start the conversation (first message), post the message, ask for the answer: one read, one write.
    await deps.handle(
      threadDecider,
      streamIds.thread(threadId),
      [
        (state): ThreadCommand | undefined =>
          state.status !== 'none'
            ? undefined
            : {
                type: 'StartThread',
                data: {
                  threadId,
                  assistantId: received.assistantId,
                  assistantOwnerId: received.ownerId,
                  ownerId: null,
                  visitorSessionHash: contactHash,
                  isPublic: true,
                  channel: received.kind,
                  shareTokenHash: null,
                  contact: { integrationId: received.integrationId, chatId: received.chatId, name: contactName },
                },
              },
        {
          type: 'PostUserMessage',
          data: {
            requester,
            messageId,
            text: received.text,
            language: detectLanguage(received.text),
            chatLimit: assistant.chatLimit,
          },
        },
        // Not while the owner has the conversation, nor for a chat that is flooding; while the previous
        // answer is still being made, the conflict is tolerated and followUp answers this one next.
        (state): ThreadCommand | undefined => {
          answering = false;
          if (state.status !== 'open' || state.takenOver || runOf(state, runId)) return undefined;
          if (!notFlooding) return void log(where, 'channel message not answered: the chat is flooding');
          answering = true;
          return {
            type: 'RequestRun',
            data: {
              requester,
              runId,
              assistantId: received.assistantId,
              deadlineAt: new Date(now.getTime() + deps.runDeadlineSeconds * 1000).toISOString(),
              now: now.toISOString(),
            },
          };
        },
      ],
      context(trigger),
      { tolerate: (error, command) => command?.type === 'RequestRun' && runConflict(error) },
    );
    if (notFlooding && !answering) await deps.floodLimit.giveBack(chatKey);
  }

  /** A customer who wrote again while the previous answer was being made is answered now, once. */
  async function followUp(trigger: RecordedEvent, threadId: string) {
    const { state, events } = await readThread(threadId);
    if (state.status !== 'open' || state.takenOver || !state.thread.visitorSessionHash) return;
    const lastRequest = events.findLastIndex((e) => e.type === 'RunRequested');
    const waiting = events.slice(lastRequest + 1).findLast((e) => e.type === 'MessagePosted' && e.data.role === 'user');
    if (!waiting || waiting.type !== 'MessagePosted' || hasRunUnderway(state)) return;
    const contact = state.thread.contact;
    if (contact && !(await deps.floodLimit.take(`${contact.integrationId}|${contact.chatId}`))) return;
    await requestRun(
      trigger,
      threadId,
      `run_${keyed(`run|${waiting.data.messageId}`).slice(0, 32)}`,
      state.thread.assistantId,
      { visitorSessionHash: state.thread.visitorSessionHash, shareTokenHash: null },
    );
  }

  async function sendParts(
    adapter: ChannelAdapter,
    account: Parameters<ChannelAdapter['send']>[0],
    secrets: Parameters<ChannelAdapter['send']>[1],
    chatId: string,
    parts: string[],
  ) {
    const ids: string[] = [];
    for (const part of parts) {
      try {
        ids.push(await adapter.send(account, secrets, chatId, part));
      } catch (error) {
        if (
          !(error instanceof ChannelApiError) ||
          error.status !== 429 ||
          (error.retryAfterSeconds ?? Infinity) > MAX_RETRY_AFTER_SECONDS
        )
          throw error;
        await new Promise((resolve) => setTimeout(resolve, (error.retryAfterSeconds ?? 1) * 1000));
        ids.push(await adapter.send(account, secrets, chatId, part));
      }
    }
    return ids;
  }

  /** Sends one assistant-side message of a channel thread to the customer, at most once. */
  async function deliver(
    trigger: RecordedEvent,
    threadId: string,
    messageId: string,
    text: string,
    author: 'assistant' | 'owner',
  ) {
    // A conversation's channel and customer never change: known from its start, the connection is read
    // alongside the thread instead of after it.
    const known = conversations.get(threadId);
    const [{ state }, early] = await Promise.all([
      readThread(threadId),
      known ? liveIntegration(known.assistantId, known.kind, known.integrationId) : undefined,
    ]);
    if (state.status !== 'open' || !state.thread.contact) return;
    const { contact, assistantId, channel } = state.thread;
    if (!CHANNELS.includes(channel)) return;
    const kind = channel as ChannelKind;
    const where = { integrationId: contact.integrationId, kind, threadId, messageId };
    // An answer that arrives after the owner took the conversation over is kept in the thread, not sent.
    if (author === 'assistant' && state.takenOver)
      return log(where, 'answer not sent: the owner took the conversation over');
    const integration = known ? early : await liveIntegration(assistantId, kind, contact.integrationId);
    if (!integration) return log(where, 'answer not sent: the integration is disconnected');
    await sendOnce(trigger, messageId, threadId, integration, contact.chatId, text, author);
  }

  /** Claims a message on its own stream (one write), then sends it in parts; records how it went. */
  async function sendOnce(
    trigger: RecordedEvent,
    messageId: string,
    threadId: string | null,
    integration: ChannelConnected,
    chatId: string,
    text: string,
    author: 'assistant' | 'owner',
  ) {
    const kind = integration.account.kind;
    const adapter = deps.adapters[kind];
    const where = { integrationId: integration.integrationId, kind, threadId, messageId };
    // A sales page the answer refers to travels as a link: a channel cannot open it for the customer.
    const { text: body, redirectUrl } = parseRedirect(text);
    const parts = splitText(redirectUrl ? `${body}\n\n${redirectUrl}` : body, adapter.maxTextLength);
    if (parts.length === 0) return;
    const stream = channelStreams.outbound(messageId);
    // Claimed in one write before anything is sent: whoever sees this message again finds it taken.
    const claimed = await deps.handle(
      channelOutboundDecider,
      stream,
      {
        type: 'DispatchReply',
        data: {
          messageId,
          threadId,
          integrationId: integration.integrationId,
          kind,
          chatId,
          parts: parts.length,
          author,
        },
      },
      context(trigger),
      { expected: 'no_stream' },
    );
    if (!claimed.appended) return;
    // What the claim left is where the outcome is appended (no read; another writer would be a conflict).
    const from = { state: claimed.state, revision: claimed.revision };
    try {
      const ids = await sendParts(
        adapter,
        integration.account,
        deps.secrets.open(integration.integrationId, integration.sealedSecrets),
        chatId,
        parts,
      );
      const sendMs = Math.max(0, clock().getTime() - trigger.createdAt.getTime());
      await deps.handle(
        channelOutboundDecider,
        stream,
        {
          type: 'ConfirmReply',
          data: { messageId, integrationId: integration.integrationId, externalMessageIds: ids, sendMs },
        },
        context(trigger),
        { from },
      );
    } catch (error) {
      const reason = error instanceof ChannelApiError ? error.reason : 'the message could not be sent';
      if (!(error instanceof ChannelApiError)) deps.onError?.(error);
      log({ ...where, reason }, 'answer not sent: the channel refused it');
      await deps.handle(
        channelOutboundDecider,
        stream,
        { type: 'FailReply', data: { messageId, integrationId: integration.integrationId, error: reason } },
        context(trigger),
        { from },
      );
    }
  }

  async function onThreadEvent(event: RecordedEvent) {
    const posted = eventOf(['MessagePosted'], event);
    if (posted) {
      const m = posted.data;
      if (m.role !== 'assistant' || !CHANNELS.includes(m.channel)) return;
      await deliver(event, m.threadId, m.messageId, m.text, m.author ?? 'assistant');
      if (m.runId) await followUp(event, m.threadId);
      return;
    }
    const unanswered = eventOf(['RunFailed', 'RunExpired'], event);
    if (unanswered) {
      const { state } = await readThread(unanswered.data.threadId);
      if (state.status !== 'open' || !state.thread.contact) return;
      await deliver(event, unanswered.data.threadId, `fail_${unanswered.data.runId}`, RUN_FAILED_TEXT, 'assistant');
      await followUp(event, unanswered.data.threadId);
    }
  }

  const laneOfInbound = (value: string) => {
    try {
      const data = (JSON.parse(value) as { data?: { integrationId?: string; chatId?: string } }).data;
      return `${data?.integrationId}|${data?.chatId}`;
    } catch {
      return value.slice(0, 64);
    }
  };

  return {
    async start() {
      const concurrency = deps.concurrency ?? 16;
      consumers.push(
        await deps.bus.consume({
          groupId: deps.groupIds?.inbound ?? 'channels-inbound',
          topics: [topicFor(channelStreams.inbound('x', 'y'))],
          eventTypes: ['ChannelMessageReceived'],
          concurrency,
          // One chat's messages are handled in order; other chats do not wait behind it.
          laneOf: (message) => laneOfInbound(message.value),
          handler: async (message) => {
            const event = eventOf(['ChannelMessageReceived'], fromMessage(message));
            if (event) await receive(event, event.data);
          },
        }),
        await deps.bus.consume({
          groupId: deps.groupIds?.outbound ?? 'channels-outbound',
          topics: [topicFor(streamIds.thread('x'))],
          // A thread's other events (runs requested, started, streamed) are skipped unread.
          eventTypes: ['MessagePosted', 'RunFailed', 'RunExpired'],
          concurrency,
          handler: async (message) => onThreadEvent(fromMessage(message)),
        }),
      );
    },
    async stop() {
      const all = consumers.splice(0);
      await Promise.all(all.map((consumer) => consumer.stop()));
    },
  };
}
export type ChannelsWorker = ReturnType<typeof createChannelsWorker>;
