/** Stream ids are `<category>-<id>`; the category names the Kafka topic the relay publishes to. */
export const streamIds = {
  account: (id: string) => `account-${id}`,
  assistant: (id: string) => `assistant-${id}`,
  knowledgeFile: (id: string) => `knowledgefile-${id}`,
  /** A conversation: its messages, runs and feedback (runs are short-lived; a thread stays small). */
  thread: (id: string) => `thread-${id}`,
} as const;

export function categoryOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}
