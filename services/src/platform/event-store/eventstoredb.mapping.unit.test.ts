import { ANY, NO_STREAM, START, STREAM_EXISTS } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import {
  allFilterPredicate,
  categoryOf,
  categoryRegex,
  escapeRegex,
  eventTypeRegex,
  fromClientPosition,
  serverFilterSpec,
  toClientExpectedRevision,
  toClientReadPosition,
  toPortActualRevision,
} from './eventstoredb.event-store.js';

// The server evaluates these patterns with .NET regexes; the constructs used (alternation, anchors,
// escapes, `(?!)`) behave the same in JS, so JS RegExp stands in for it here.
const matches = (pattern: string, text: string) => new RegExp(pattern).test(text);

describe('EventStoreDB adapter mapping', () => {
  it('maps expected revisions onto the client constants', () => {
    expect(toClientExpectedRevision('any')).toBe(ANY);
    expect(toClientExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toClientExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toClientExpectedRevision(0n)).toBe(0n);
    expect(toClientExpectedRevision(41n)).toBe(41n);
  });

  it('maps the revision a conflict reports', () => {
    expect(toPortActualRevision(3n)).toBe(3n);
    expect(toPortActualRevision(0n)).toBe(0n);
    expect(toPortActualRevision(NO_STREAM)).toBe('no_stream');
    expect(toPortActualRevision(-1n)).toBe('no_stream');
    expect(toPortActualRevision(undefined)).toBe('unknown');
  });

  it('converts positions both ways', () => {
    expect(toClientReadPosition(undefined)).toBe(START);
    expect(toClientReadPosition({ commit: 10n, prepare: 8n })).toEqual({ commit: 10n, prepare: 8n });
    expect(fromClientPosition({ commit: 18446744073709551000n, prepare: 7n }, 's-1')).toEqual({
      commit: 18446744073709551000n,
      prepare: 7n,
    });
    expect(() => fromClientPosition(undefined, 's-1')).toThrow(/s-1.*22\.6/);
  });

  it('escapes regex metacharacters in names', () => {
    const nasty = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    expect(matches(`^${escapeRegex(nasty)}$`, nasty)).toBe(true);
    expect(matches(`^${escapeRegex('a.b')}$`, 'axb')).toBe(false);
  });

  it('matches event types exactly, not by prefix', () => {
    const pattern = eventTypeRegex(['OrderPlaced', 'Order.Paid']);
    expect(pattern).toBe('^(OrderPlaced|Order\\.Paid)$');
    expect(matches(pattern, 'OrderPlaced')).toBe(true);
    expect(matches(pattern, 'Order.Paid')).toBe(true);
    expect(matches(pattern, 'OrderPlacedV2')).toBe(false);
    expect(matches(pattern, 'XOrderPlaced')).toBe(false);
    expect(matches(pattern, 'OrderXPaid')).toBe(false);
  });

  it('matches categories as the part before the first dash', () => {
    const pattern = categoryRegex(['assistant', 'a+b']);
    expect(matches(pattern, 'assistant-123')).toBe(true);
    expect(matches(pattern, 'assistant-123-x')).toBe(true);
    expect(matches(pattern, 'assistant')).toBe(true);
    expect(matches(pattern, 'a+b-1')).toBe(true);
    expect(matches(pattern, 'assistants-1')).toBe(false);
    expect(matches(pattern, 'aab-1')).toBe(false);
    expect(matches(pattern, 'x-assistant-1')).toBe(false);
    expect(categoryOf('assistant-1-2')).toBe('assistant');
    expect(categoryOf('plain')).toBe('plain');
  });

  it('matches nothing for an empty list', () => {
    expect(matches(eventTypeRegex([]), 'Anything')).toBe(false);
    expect(matches(eventTypeRegex([]), '')).toBe(false);
    expect(matches(categoryRegex([]), 'any-stream')).toBe(false);
  });

  it('chooses one server-side filter, falling back to excluding system events for an OR', () => {
    expect(serverFilterSpec(undefined)).toEqual({ on: 'excludeSystemEvents' });
    expect(serverFilterSpec({})).toEqual({ on: 'excludeSystemEvents' });
    expect(serverFilterSpec({ eventTypes: ['A'] })).toEqual({ on: 'eventType', regex: '^(A)$' });
    expect(serverFilterSpec({ categories: ['c'] })).toEqual({ on: 'streamName', regex: '^(c)(-|$)' });
    expect(serverFilterSpec({ eventTypes: ['A'], categories: ['c'] })).toEqual({ on: 'excludeSystemEvents' });
  });

  it('filters client-side with OR semantics and never passes system events', () => {
    const all = allFilterPredicate(undefined);
    expect(all({ type: 'A', streamId: 'x-1' })).toBe(true);
    expect(all({ type: '$streamDeleted', streamId: 'x-1' })).toBe(false);
    expect(all({ type: '$>', streamId: '$ce-x' })).toBe(false);

    const either = allFilterPredicate({ eventTypes: ['A'], categories: ['c'] });
    expect(either({ type: 'A', streamId: 'x-1' })).toBe(true);
    expect(either({ type: 'B', streamId: 'c-1' })).toBe(true);
    expect(either({ type: 'B', streamId: 'x-1' })).toBe(false);
    expect(either({ type: '$metadata', streamId: 'c-1' })).toBe(false);

    const none = allFilterPredicate({ eventTypes: [] });
    expect(none({ type: 'A', streamId: 'x-1' })).toBe(false);
  });
});
