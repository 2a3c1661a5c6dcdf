import type { KeywordsRetained, RecordedEvent } from '@kesher/contracts';
import { eventsOf } from '../../shared/typed-projection.js';
import { dayOf } from '../shared/facts.js';
import { keywordsOf } from './keyword-extraction.js';
import type { KeywordSource } from './keywords.projection.js';

/** What an erased message's text reads as (the event-log codec's text; docs/privacy.md). */
export const ERASED_TEXT = '[erased]';

export const sourceOf = (role: string): KeywordSource => (role === 'user' ? 'customer' : 'assistant');

/**
 * What a conversation's erasure keeps of it for the keyword counts (KeywordsRetained): from the thread's
 * events as read before its key is shredded, each sealed message's day, side and keywords, in log order,
 * and how many messages were stored in clear before the codec (`isPlain` says which, from the stored form).
 */
export function retainedKeywordsOf(
  threadId: string,
  events: readonly RecordedEvent[],
  isPlain: (event: RecordedEvent) => boolean,
): KeywordsRetained {
  const messages: KeywordsRetained['messages'] = [];
  let plain = 0;
  for (const message of eventsOf(events, 'MessagePosted')) {
    if (message.data.text === ERASED_TEXT) continue;
    if (isPlain(message)) {
      plain++;
      continue;
    }
    messages.push({
      day: dayOf(message.metadata.timestamp),
      source: sourceOf(message.data.role),
      keywords: keywordsOf(message.data.text),
    });
  }
  return { threadId, messages, plain };
}
