import { countWords, limits } from './limits.js';

/** Chat texts of the spec (§5 validation, §8 errors), shared by the client and the server. */
export const chatMessages = {
  invalidAssistantId: 'Invalid assistant ID',
  invalidAssistantIdFormat: 'Invalid assistant ID format',
  invalidThreadId: 'Invalid thread ID',
  invalidRunId: 'Invalid run ID',
  emptyMessage: 'Message content cannot be empty',
  /** A run's `additional_messages` (the message sent with the run): only the chatter's own words, one at a time. */
  onlyUserMessages: 'Only a user message can be sent with a run.',
  oneMessagePerRun: 'Only one message can be sent with a run.',
  messageTooLong: 'Message too long (max 10000 characters)',
  threadNotFound: 'THREAD_NOT_FOUND',
  threadInvalid: 'THREAD_INVALID',
  runNotFound: 'Run not found.',
  runActive: 'The assistant is still answering the previous message. Please wait for the answer.',
  noPermission: "You don't have permission to create conversations with this assistant.",
  invalidShareLink: 'Invalid or expired share link.',
  sessionTokenRequired: 'A session token is required for public chat.',
  chatLimitReached: (limit: number) =>
    `This conversation has reached the assistant's limit of ${limit} messages. Please start a new conversation.`,
  /**
   * The plan's monthly message limit (every user message to the owner's assistants, visitors' included):
   * the owner's, shared by all their assistants — not one assistant's (issue 22 item 15).
   */
  monthlyLimitReached: (limit: number) =>
    `You have reached your plan's monthly limit of ${limit} messages across all your assistants. Please try again next month or upgrade the plan.`,
  /**
   * What a visitor is told when the owner's monthly messages are used up or the visitor reached their daily
   * allowance: neutral — the plan and its upgrade are the owner's business, not the visitor's.
   */
  assistantUnavailable: 'This assistant is not available right now. Please try again later.',
  feedbackCommentTooLong: 'Comment is too long (max 500 characters)',
  titleRequired: 'Title cannot be empty',
  /** The owner opened a visitor's conversation from Chat History: readable, not writable. */
  visitorThreadReadOnly:
    'This conversation belongs to a visitor. You can read, rename or delete it, but not write in it.',
} as const;

/** The spec's token estimate: characters divided by 4, rounded up. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * The chat input rules (100 words, 400 estimated tokens) with the spec's texts; undefined when valid.
 * The client shows the text before sending; the server refuses the same input with the same text.
 */
export function chatInputProblem(text: string): string | undefined {
  const words = countWords(text);
  if (words > limits.chatInputWords) {
    return `Message exceeds word limit. Maximum ${limits.chatInputWords} words allowed, but message contains ${words} words.`;
  }
  const tokens = estimateTokens(text);
  if (tokens > limits.chatInputTokens) {
    return `Message exceeds token limit. Maximum ${limits.chatInputTokens} tokens allowed, but message contains approximately ${tokens} tokens.`;
  }
  return undefined;
}

const HEBREW = /[\u0590-\u05FF]/u;
const LATIN = /[A-Za-z]/;

/** The language of a message: Hebrew when it has Hebrew letters (mixed texts are usually Hebrew with a name or a term). */
export function detectLanguage(text: string): 'he' | 'en' | 'other' {
  if (HEBREW.test(text)) return 'he';
  if (LATIN.test(text)) return 'en';
  return 'other';
}

/**
 * The redirect command of sales mode (spec part 1 §4, part 2 §4): a line of its own at the end of an
 * assistant message. The client strips it from the text and turns it into a 'Visit Link' button (or,
 * in the embed, navigates to it after 1 s). The spec names the behaviour, not the syntax; this is it.
 */
export const REDIRECT_MARKER = /^\[REDIRECT:\s*(https?:\/\/[^\s\]]+)\s*\]\s*$/m;

export const redirectMarker = (url: string) => `[REDIRECT: ${url}]`;

/** Splits an assistant message into its visible text and the redirect address, if any. */
export function parseRedirect(text: string): { text: string; redirectUrl: string | null } {
  const match = REDIRECT_MARKER.exec(text);
  if (!match) return { text, redirectUrl: null };
  return { text: text.replace(REDIRECT_MARKER, '').trim(), redirectUrl: match[1]! };
}

/** Every redirect command, wherever it stands (a preview may hold one cut mid-line, or more than one). */
const ANY_REDIRECT_MARKER = /\[REDIRECT:[^\]\n]*\]?/g;

/**
 * A message's text as a list shows it (Chat History, the one inbox): the redirect commands are for the
 * chat's renderer only, so they are taken out, and the whitespace they leave is folded.
 */
export function displayText(text: string): string {
  return text.replace(ANY_REDIRECT_MARKER, ' ').replace(/\s+/g, ' ').trim();
}

/** How long a conversation's title made from its first message may be, in characters. */
export const CONVERSATION_TITLE_MAX = 60;

/**
 * A conversation's title until someone renames it: its first message, on one line, cut at a word
 * boundary with an ellipsis when long — so Chat History tells conversations apart instead of listing
 * "Untitled Conversation" again and again. Empty when there is no first message yet.
 */
export function conversationTitleFrom(firstMessage: string | null | undefined): string {
  const line = displayText(firstMessage ?? '');
  if (line.length <= CONVERSATION_TITLE_MAX) return line;
  const cut = line.slice(0, CONVERSATION_TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space >= CONVERSATION_TITLE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/u, '')}…`;
}
