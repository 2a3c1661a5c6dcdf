import { z } from 'zod';
import { AccountDeletedSchema, KeywordsRetainedSchema, SubjectErasedSchema } from './privacy.events.js';
import {
  AccountAddressReleasedSchema,
  AccountEmailVerifiedSchema,
  AccountPasswordResetSchema,
  AccountRegisteredSchema,
} from './account.events.js';
import {
  CrawlCompletedSchema,
  CrawlFailedSchema,
  CrawlPagesLinkedSchema,
  CrawlRequestedSchema,
  CrawlRobotsReadSchema,
  PageDiscoveredSchema,
  PagesDiscoveredSchema,
  PageFailedSchema,
  PageFetchedSchema,
  PageScoredSchema,
  PageSkippedSchema,
} from './crawl.events.js';
import {
  CrawledPageCommittedSchema,
  CrawledPagesDeletedSchema,
  CrawledPageToggledSchema,
  CrawlerConfigDeletedSchema,
  CrawlerConfiguredSchema,
  CrawlerSchedulePausedSchema,
  CrawlerConfigUpdatedSchema,
} from './crawler-site.events.js';
import { LimitViolatedSchema, QueryTrackedSchema } from './analytics.events.js';
import {
  PaymentDeclinedSchema,
  PaymentSucceededSchema,
  StripeWebhookReceivedSchema,
  SubscriptionActivatedSchema,
  SubscriptionCancelRequestedSchema,
  SubscriptionCheckoutStartedSchema,
  SubscriptionEndedSchema,
  SubscriptionPastDueSchema,
  SubscriptionPlanChangedSchema,
  SubscriptionRenewedSchema,
  SubscriptionResumedSchema,
} from './subscription.events.js';
import {
  ActionCalledSchema,
  ActionCreatedSchema,
  ActionDeletedSchema,
  ActionUpdatedSchema,
  ExternalApiConfigDeletedSchema,
  ExternalApiConfiguredSchema,
  GuidelineCreatedSchema,
  GuidelineDeletedSchema,
  GuidelineUpdatedSchema,
  RunActionsRequiredSchema,
  WorkflowCreatedSchema,
  WorkflowDeletedSchema,
  WorkflowFiredSchema,
  WorkflowUpdatedSchema,
} from './automation.events.js';
import {
  AssistantCreatedSchema,
  AssistantDeletedSchema,
  AssistantSlotFreedSchema,
  AssistantSlotTakenSchema,
  KnowledgeFileSlotFreedSchema,
  KnowledgeFileSlotTakenSchema,
  AssistantUpdatedSchema,
  AnswerCuratedSchema,
  CuratedAnswerDeletedSchema,
  CuratedAnswerEditedSchema,
  ShareTokenGeneratedSchema,
  ShareTokenRevokedSchema,
} from './assistant.events.js';
import { StorageHeldSchema, StorageReleasedSchema } from './storage.events.js';
import {
  KnowledgeFileDeletedSchema,
  KnowledgeFileIngestedSchema,
  KnowledgeFileIngestionFailedSchema,
  KnowledgeFileUploadedSchema,
} from './knowledge.events.js';
import {
  FeedbackGivenSchema,
  MessagePostedSchema,
  RunCompletedSchema,
  RunExpiredSchema,
  RunFailedSchema,
  RunRequestedSchema,
  RunStartedSchema,
  ThreadDeletedSchema,
  ThreadRenamedSchema,
  ThreadHandedBackSchema,
  ThreadStartedSchema,
  ThreadTakenOverSchema,
} from './thread.events.js';
import {
  ChannelConnectedSchema,
  ChannelDeliveryStatusReportedSchema,
  ChannelDisconnectedSchema,
  ChannelMessageReceivedSchema,
  ChannelReplyDeliveredSchema,
  ChannelReplyDispatchedSchema,
  ChannelReplyFailedSchema,
} from './channel.events.js';

/**
 * One stored event type: its current schema version, its zod schema, and the upcasters that lift
 * older stored shapes to the current one. `upcasters[n]` turns version n data into version n + 1.
 * Events are facts and never rewritten in the store; upcasting happens on read.
 */
export interface EventDefinition<Schema extends z.ZodType = z.ZodType> {
  version: number;
  schema: Schema;
  upcasters?: Record<number, (data: unknown) => unknown>;
}

export const eventDefinitions = {
  AccountRegistered: { version: 1, schema: AccountRegisteredSchema },
  AccountEmailVerified: { version: 1, schema: AccountEmailVerifiedSchema },
  AccountPasswordReset: { version: 1, schema: AccountPasswordResetSchema },
  AccountAddressReleased: { version: 1, schema: AccountAddressReleasedSchema },
  AccountDeleted: { version: 1, schema: AccountDeletedSchema },
  SubjectErased: { version: 1, schema: SubjectErasedSchema },
  KeywordsRetained: { version: 1, schema: KeywordsRetainedSchema },
  AssistantCreated: { version: 1, schema: AssistantCreatedSchema },
  AssistantUpdated: { version: 1, schema: AssistantUpdatedSchema },
  AssistantDeleted: { version: 1, schema: AssistantDeletedSchema },
  ShareTokenGenerated: { version: 1, schema: ShareTokenGeneratedSchema },
  ShareTokenRevoked: { version: 1, schema: ShareTokenRevokedSchema },
  AssistantSlotTaken: { version: 1, schema: AssistantSlotTakenSchema },
  AssistantSlotFreed: { version: 1, schema: AssistantSlotFreedSchema },
  KnowledgeFileSlotTaken: { version: 1, schema: KnowledgeFileSlotTakenSchema },
  KnowledgeFileSlotFreed: { version: 1, schema: KnowledgeFileSlotFreedSchema },
  AnswerCurated: { version: 1, schema: AnswerCuratedSchema },
  CuratedAnswerEdited: { version: 1, schema: CuratedAnswerEditedSchema },
  CuratedAnswerDeleted: { version: 1, schema: CuratedAnswerDeletedSchema },
  StorageHeld: { version: 1, schema: StorageHeldSchema },
  StorageReleased: { version: 1, schema: StorageReleasedSchema },
  KnowledgeFileUploaded: { version: 1, schema: KnowledgeFileUploadedSchema },
  KnowledgeFileIngested: { version: 1, schema: KnowledgeFileIngestedSchema },
  KnowledgeFileIngestionFailed: { version: 1, schema: KnowledgeFileIngestionFailedSchema },
  KnowledgeFileDeleted: { version: 1, schema: KnowledgeFileDeletedSchema },
  ThreadStarted: { version: 1, schema: ThreadStartedSchema },
  MessagePosted: { version: 1, schema: MessagePostedSchema },
  RunRequested: { version: 1, schema: RunRequestedSchema },
  RunStarted: { version: 1, schema: RunStartedSchema },
  RunCompleted: { version: 1, schema: RunCompletedSchema },
  RunFailed: { version: 1, schema: RunFailedSchema },
  RunExpired: { version: 1, schema: RunExpiredSchema },
  ThreadRenamed: { version: 1, schema: ThreadRenamedSchema },
  ThreadDeleted: { version: 1, schema: ThreadDeletedSchema },
  FeedbackGiven: { version: 1, schema: FeedbackGivenSchema },
  ThreadTakenOver: { version: 1, schema: ThreadTakenOverSchema },
  ThreadHandedBack: { version: 1, schema: ThreadHandedBackSchema },
  ChannelConnected: { version: 1, schema: ChannelConnectedSchema },
  ChannelDisconnected: { version: 1, schema: ChannelDisconnectedSchema },
  ChannelMessageReceived: { version: 1, schema: ChannelMessageReceivedSchema },
  ChannelReplyDispatched: { version: 1, schema: ChannelReplyDispatchedSchema },
  ChannelReplyDelivered: { version: 1, schema: ChannelReplyDeliveredSchema },
  ChannelReplyFailed: { version: 1, schema: ChannelReplyFailedSchema },
  ChannelDeliveryStatusReported: { version: 1, schema: ChannelDeliveryStatusReportedSchema },
  CrawlRequested: { version: 1, schema: CrawlRequestedSchema },
  CrawlRobotsRead: { version: 1, schema: CrawlRobotsReadSchema },
  PageDiscovered: { version: 1, schema: PageDiscoveredSchema },
  PagesDiscovered: { version: 1, schema: PagesDiscoveredSchema },
  PageFetched: { version: 1, schema: PageFetchedSchema },
  PageFailed: { version: 1, schema: PageFailedSchema },
  PageSkipped: { version: 1, schema: PageSkippedSchema },
  PageScored: { version: 1, schema: PageScoredSchema },
  CrawlCompleted: { version: 1, schema: CrawlCompletedSchema },
  CrawlFailed: { version: 1, schema: CrawlFailedSchema },
  CrawlPagesLinked: { version: 1, schema: CrawlPagesLinkedSchema },
  CrawlerConfigured: { version: 1, schema: CrawlerConfiguredSchema },
  CrawlerConfigUpdated: { version: 1, schema: CrawlerConfigUpdatedSchema },
  CrawlerConfigDeleted: { version: 1, schema: CrawlerConfigDeletedSchema },
  CrawlerSchedulePaused: { version: 1, schema: CrawlerSchedulePausedSchema },
  CrawledPageCommitted: { version: 1, schema: CrawledPageCommittedSchema },
  CrawledPageToggled: { version: 1, schema: CrawledPageToggledSchema },
  CrawledPagesDeleted: { version: 1, schema: CrawledPagesDeletedSchema },
  LimitViolated: { version: 1, schema: LimitViolatedSchema },
  QueryTracked: { version: 1, schema: QueryTrackedSchema },
  SubscriptionCheckoutStarted: { version: 1, schema: SubscriptionCheckoutStartedSchema },
  SubscriptionActivated: { version: 1, schema: SubscriptionActivatedSchema },
  SubscriptionRenewed: { version: 1, schema: SubscriptionRenewedSchema },
  SubscriptionPlanChanged: { version: 1, schema: SubscriptionPlanChangedSchema },
  SubscriptionPastDue: { version: 1, schema: SubscriptionPastDueSchema },
  SubscriptionCancelRequested: { version: 1, schema: SubscriptionCancelRequestedSchema },
  SubscriptionResumed: { version: 1, schema: SubscriptionResumedSchema },
  SubscriptionEnded: { version: 1, schema: SubscriptionEndedSchema },
  PaymentSucceeded: { version: 1, schema: PaymentSucceededSchema },
  PaymentDeclined: { version: 1, schema: PaymentDeclinedSchema },
  StripeWebhookReceived: { version: 1, schema: StripeWebhookReceivedSchema },
  WorkflowCreated: { version: 1, schema: WorkflowCreatedSchema },
  WorkflowUpdated: { version: 1, schema: WorkflowUpdatedSchema },
  WorkflowDeleted: { version: 1, schema: WorkflowDeletedSchema },
  GuidelineCreated: { version: 1, schema: GuidelineCreatedSchema },
  GuidelineUpdated: { version: 1, schema: GuidelineUpdatedSchema },
  GuidelineDeleted: { version: 1, schema: GuidelineDeletedSchema },
  ActionCreated: { version: 1, schema: ActionCreatedSchema },
  ActionUpdated: { version: 1, schema: ActionUpdatedSchema },
  ActionDeleted: { version: 1, schema: ActionDeletedSchema },
  ExternalApiConfigured: { version: 1, schema: ExternalApiConfiguredSchema },
  ExternalApiConfigDeleted: { version: 1, schema: ExternalApiConfigDeletedSchema },
  WorkflowFired: { version: 1, schema: WorkflowFiredSchema },
  RunActionsRequired: { version: 1, schema: RunActionsRequiredSchema },
  ActionCalled: { version: 1, schema: ActionCalledSchema },
} satisfies Record<string, EventDefinition>;

export type EventType = keyof typeof eventDefinitions;
export type EventData<T extends EventType> = z.infer<(typeof eventDefinitions)[T]['schema']>;
/** A discriminated union of every known event, `{ type, data }`. */
export type KesherEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

export class EventSchemaError extends Error {
  constructor(
    readonly eventType: string,
    readonly issues: string,
  ) {
    super(`event ${eventType} does not match its schema: ${issues}`);
    this.name = 'EventSchemaError';
  }
}

export const isKnownEventType = (type: string): type is EventType => Object.hasOwn(eventDefinitions, type);

function definitionOf(type: string): EventDefinition {
  if (!isKnownEventType(type)) throw new EventSchemaError(type, 'unknown event type');
  return eventDefinitions[type];
}

function parseWith(type: string, schema: z.ZodType, data: unknown) {
  const result = schema.safeParse(data);
  if (!result.success) throw new EventSchemaError(type, z.prettifyError(result.error));
  return result.data;
}

/** Validates an event about to be appended; throws EventSchemaError so nothing malformed is stored. */
export function validateNewEvent(type: string, data: unknown): { data: unknown; schemaVersion: number } {
  const definition = definitionOf(type);
  return { data: parseWith(type, definition.schema, data), schemaVersion: definition.version };
}

/** Brings a stored event's data to the current schema version. */
export function upcast(
  type: string,
  data: unknown,
  storedVersion: number,
  registry: Record<string, EventDefinition> = eventDefinitions,
): unknown {
  const definition = registry[type];
  if (!definition) return data;
  let current = data;
  for (let version = storedVersion; version < definition.version; version++) {
    const step = definition.upcasters?.[version];
    if (!step) throw new EventSchemaError(type, `no upcaster from version ${version}`);
    current = step(current);
  }
  return current;
}
