import { EMBED_MESSAGES, type EmbedMessage } from '../../../widget/options';

/**
 * What the embed page tells the page around it (spec part 2 §2): ASSISTANT_TYPING {isTyping} while an
 * answer is on its way (the widget animates its avatar) and NAVIGATE_TO_URL {url} for the sales-mode
 * redirect. The message shapes are defined once, beside the widget that reads them (widget/options.ts).
 *
 * The target origin is `*`: the embed cannot know which site framed it, and neither message carries
 * anything secret (a flag, and an address the assistant is about to open anyway). The receiving side
 * checks the sender instead (the widget accepts only Kesher's origin and its own frame).
 */
export const typingMessage = (isTyping: boolean): EmbedMessage => ({ type: EMBED_MESSAGES.typing, isTyping });
export const navigateMessage = (url: string): EmbedMessage => ({ type: EMBED_MESSAGES.navigate, url });
export const closeMessage = (): EmbedMessage => ({ type: EMBED_MESSAGES.close });

export const isFramed = (win: Window = window) => win.parent !== win;

/** Posts to the parent window; false when the page is not framed (nobody to tell). */
export function postToParent(message: EmbedMessage, win: Window = window): boolean {
  if (!isFramed(win)) return false;
  try {
    win.parent.postMessage(message, '*');
    return true;
  } catch {
    return false;
  }
}

/** The redirect (spec §4): the framing page navigates; opened directly, the embed page itself does. */
export function openRedirect(url: string, win: Window = window) {
  if (!postToParent(navigateMessage(url), win)) win.location.assign(url);
}

/** A redirect leaves 1 s after a fresh answer arrives (spec §9), never for messages read from history. */
export const REDIRECT_DELAY_MS = 1000;
