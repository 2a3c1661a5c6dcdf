/** Stream ids are `<category>-<id>`; the category names the Kafka topic the relay publishes to. */
export const streamIds = {
  account: (id: string) => `account-${id}`,
  assistant: (id: string) => `assistant-${id}`,
  /** The slots an owner's assistants hold against the plan's max_assistants (one stream per owner). */
  assistantSlots: (ownerId: string) => `assistantslots-${ownerId}`,
  /** The knowledge storage an owner's uploads in flight hold against the plan's max_storage_mb (one stream per owner). */
  storageHolds: (ownerId: string) => `storageholds-${ownerId}`,
  knowledgeFile: (id: string) => `knowledgefile-${id}`,
  /** A conversation: its messages, runs and feedback (runs are short-lived; a thread stays small). */
  thread: (id: string) => `thread-${id}`,
  /** One crawl of a website (preview, crawl or recrawl): what it found, page by page. */
  crawl: (id: string) => `crawl-${id}`,
  /** An assistant's website: its crawler configuration and the crawled pages it holds as knowledge. */
  crawlerSite: (assistantId: string) => `crawlersite-${assistantId}`,
  /** One refusal by a plan limit (a fact on its own stream: nothing is decided on it). */
  limitViolation: (id: string) => `limitviolation-${id}`,
  /** One query an owner reported through POST /analytics/track-query. */
  trackedQuery: (id: string) => `trackedquery-${id}`,
  /** An owner's subscription: checkouts, the subscription's life and its payments (one stream per owner). */
  subscription: (ownerId: string) => `subscription-${ownerId}`,
  /** A Stripe webhook about no known customer: recorded once (its id is the stream), then ignored. */
  stripeEvent: (stripeEventId: string) => `stripeevent-${stripeEventId}`,
  /** An owner's workflows, guidelines, actions and assistants' external API endpoints (one stream per owner). */
  automation: (ownerId: string) => `automation-${ownerId}`,
  /** An assistant's connection to one channel (key `<kind>_<assistantId>`): its connects and disconnects. */
  channelIntegration: (key: string) => `channelintegration-${key}`,
  /** One inbound channel delivery (key `<integrationId>.<delivery>`): taken once, so redeliveries record nothing. */
  channelInbound: (key: string) => `channelinbound-${key}`,
  /** One assistant message sent to a channel: claimed before sending, so it is never sent twice. */
  channelOutbound: (messageId: string) => `channeloutbound-${messageId}`,
  /** One delivery status a channel reported for a sent message (key `<integrationId>.<status>`; redeliveries find it recorded). */
  channelStatus: (key: string) => `channelstatus-${key}`,
  /** One erasure of a data subject (SubjectErased): the proof it happened, never what was erased. */
  erasure: (erasureId: string) => `erasure-${erasureId}`,
} as const;

export function categoryOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}
