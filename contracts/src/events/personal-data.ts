import type { EventData, EventType } from './registry.js';

/**
 * Whose personal data an event holds. The event-log codec (services/src/platform/event-store/
 * personal-data.event-store.ts) seals the declared fields under that subject's key; erasing the subject
 * deletes the key, and the fields read "[erased]" wherever the event travels (docs/privacy.md).
 *
 * `ownerId`, when given, is the account the subject belongs to: erasing the account shreds it too.
 * A channel contact's key name is a keyed hash of its integration and chat id (the chat id is itself
 * personal and must not appear in clear as the key's name).
 */
export type SubjectRef =
  | { kind: 'account'; accountId: string }
  | { kind: 'thread'; threadId: string; ownerId?: string }
  | { kind: 'channel_contact'; integrationId: string; chatId: string; ownerId?: string };

/**
 * One event type's personal data: the subject it is about and the paths of its personal fields. A path
 * is dotted (`contact.name`); `[]` after a segment means each element of that array (`calls[].arguments`).
 * Null values and absent fields are left as they are. `subject` returning null: nothing to seal in this
 * one (e.g. a delivery status without a recipient).
 */
export interface PersonalDataDeclaration<Data = unknown> {
  subject: (data: Data) => SubjectRef | null;
  fields: readonly string[];
}

/** An event type that holds no personal data, with the reason (read by docs/privacy.md's reviewers). */
export interface NoPersonalData {
  none: string;
}

type Declarations = { [T in EventType]: PersonalDataDeclaration<EventData<T>> | NoPersonalData };

const account = (accountId: string): SubjectRef => ({ kind: 'account', accountId });
const thread = (threadId: string, ownerId?: string): SubjectRef => ({
  kind: 'thread',
  threadId,
  ...(ownerId ? { ownerId } : {}),
});
const contact = (integrationId: string, chatId: string, ownerId?: string): SubjectRef => ({
  kind: 'channel_contact',
  integrationId,
  chatId,
  ...(ownerId ? { ownerId } : {}),
});

const ids = 'ids, counts and settings only';
const business = "the business's own content and configuration, not a person's";
const publicWeb = 'public web pages the owner asked to crawl (page texts are in blobs, deleted with the owner)';
const billing = 'a payment record, kept 7 years as the law asks (spec part 2), exempt from account erasure';

/**
 * Every event type's personal data. The type makes a new event type without an entry a compile error,
 * and personal-data.unit.test.ts fails on it too.
 */
export const personalData: Declarations = {
  AccountRegistered: {
    subject: (d) => account(d.accountId),
    fields: ['email', 'displayName', 'passwordHash', 'photoUrl'],
  },
  AccountEmailVerified: { subject: (d) => account(d.accountId), fields: ['email'] },
  AccountPasswordReset: { subject: (d) => account(d.accountId), fields: ['passwordHash'] },
  AccountAddressReleased: { subject: (d) => account(d.accountId), fields: ['email'] },
  AccountDeleted: { none: ids },
  SubjectErased: { none: 'names the erased subject by its key name, never its data' },
  // Deliberately kept readable: the keyword counts must survive the erasure and a replay (docs/privacy.md).
  KeywordsRetained: { none: "an erased conversation's keyword counts, words without their messages' texts" },
  AssistantCreated: { none: business },
  AssistantUpdated: { none: business },
  AssistantDeleted: { none: ids },
  ShareTokenGenerated: { none: 'a link secret, not a person’s data' },
  ShareTokenRevoked: { none: ids },
  AssistantSlotTaken: { none: ids },
  AssistantSlotFreed: { none: ids },
  KnowledgeFileSlotTaken: { none: ids },
  KnowledgeFileSlotFreed: { none: ids },
  // The question is often prefilled from a visitor's message and may name a person: both texts are sealed
  // under the owner's account (erased with it), like a file's name.
  AnswerCurated: { subject: (d) => account(d.ownerId), fields: ['question', 'answer'] },
  CuratedAnswerEdited: { subject: (d) => account(d.ownerId), fields: ['question', 'answer'] },
  CuratedAnswerDeleted: { none: ids },
  StorageHeld: { none: ids },
  StorageReleased: { none: ids },
  // A file's name can name a person ("cv-dana-levi.pdf"); its bytes are in the blob store.
  KnowledgeFileUploaded: { subject: (d) => account(d.ownerId), fields: ['filename', 'sourceUrl'] },
  KnowledgeFileIngested: { none: ids },
  KnowledgeFileIngestionFailed: { none: 'a readable reason chosen by Kesher' },
  KnowledgeFileDeleted: { none: ids },
  ThreadStarted: {
    subject: (d) => thread(d.threadId, d.assistantOwnerId),
    // The visitor's session and the share link are hashes of random tokens, not a person's data, and
    // analytics count distinct visitors by them: they stay, so erasure keeps those counts.
    fields: ['contact.chatId', 'contact.name'],
  },
  MessagePosted: { subject: (d) => thread(d.threadId), fields: ['text'] },
  RunRequested: { none: ids },
  RunStarted: { none: ids },
  RunCompleted: { none: 'timings, token counts and knowledge sources' },
  RunFailed: { none: 'a readable error chosen by Kesher' },
  RunExpired: { none: ids },
  ThreadRenamed: { subject: (d) => thread(d.threadId), fields: ['title'] },
  ThreadDeleted: { none: ids },
  // authorKey stays: it is `visitor:<hash of a random token>` or an account id, and one rating per author is its key.
  FeedbackGiven: { subject: (d) => thread(d.threadId), fields: ['comment'] },
  ThreadTakenOver: { none: ids },
  ThreadHandedBack: { none: ids },
  ChannelConnected: {
    subject: (d) => account(d.ownerId),
    fields: ['account.phoneNumber', 'account.testNumber', 'account.testUserId'],
  },
  ChannelDisconnected: { none: ids },
  ChannelMessageReceived: {
    subject: (d) => contact(d.integrationId, d.chatId, d.ownerId),
    fields: ['chatId', 'senderName', 'text'],
  },
  ChannelReplyDispatched: { subject: (d) => contact(d.integrationId, d.chatId), fields: ['chatId'] },
  ChannelReplyDelivered: { none: ids },
  ChannelReplyFailed: { none: "the channel's error text" },
  ChannelDeliveryStatusReported: {
    subject: (d) => (d.recipientId ? contact(d.integrationId, d.recipientId) : null),
    fields: ['recipientId'],
  },
  CrawlRequested: { none: publicWeb },
  CrawlRobotsRead: { none: publicWeb },
  PageDiscovered: { none: publicWeb },
  PagesDiscovered: { none: publicWeb },
  PageFetched: { none: publicWeb },
  PageFailed: { none: publicWeb },
  PageSkipped: { none: publicWeb },
  PageScored: { none: publicWeb },
  CrawlCompleted: { none: publicWeb },
  CrawlFailed: { none: publicWeb },
  CrawlPagesLinked: { none: publicWeb },
  CrawlerConfigured: { none: publicWeb },
  CrawlerConfigUpdated: { none: publicWeb },
  CrawlerConfigDeleted: { none: ids },
  CrawlerSchedulePaused: { none: ids },
  CrawledPageCommitted: { none: publicWeb },
  CrawledPageToggled: { none: ids },
  CrawledPagesDeleted: { none: ids },
  LimitViolated: { none: ids },
  QueryTracked: { subject: (d) => account(d.ownerId), fields: ['query'] },
  SubscriptionCheckoutStarted: { none: billing },
  SubscriptionActivated: { none: billing },
  SubscriptionRenewed: { none: billing },
  SubscriptionPlanChanged: { none: billing },
  SubscriptionPastDue: { none: billing },
  SubscriptionCancelRequested: { none: billing },
  SubscriptionResumed: { none: billing },
  SubscriptionEnded: { none: billing },
  // The payment record stays 7 years, also after the account's erasure (spec part 2); the card holder's
  // name typed at checkout is the one part the law does not need us to keep: sealed under the account.
  PaymentSucceeded: { subject: (d) => account(d.ownerId), fields: ['cardHolder'] },
  PaymentDeclined: { none: billing },
  StripeWebhookReceived: { none: billing },
  WorkflowCreated: { none: business },
  WorkflowUpdated: { none: business },
  WorkflowDeleted: { none: ids },
  GuidelineCreated: { none: business },
  GuidelineUpdated: { none: business },
  GuidelineDeleted: { none: ids },
  ActionCreated: { none: business },
  ActionUpdated: { none: business },
  ActionDeleted: { none: ids },
  ExternalApiConfigured: { none: `${business} (auth values are sealed already)` },
  ExternalApiConfigDeleted: { none: ids },
  WorkflowFired: { none: "the owner's workflow and the phrases it defined" },
  // What the model took from the customer's words for an action (a phone number, an order's e-mail).
  RunActionsRequired: { subject: (d) => thread(d.threadId), fields: ['calls[].arguments'] },
  ActionCalled: { none: 'the outcome of an action call' },
};

export const personalDataOf = (type: string): PersonalDataDeclaration | null => {
  const entry = (personalData as Record<string, PersonalDataDeclaration | NoPersonalData | undefined>)[type];
  return entry && 'fields' in entry ? entry : null;
};
