import { describe, expect, it } from 'vitest';
import { lookup } from '@/lib/texts';
import { en } from './en';
import { he } from './he';

const keys = (bundle: object, prefix = ''): string[] =>
  Object.entries(bundle).flatMap(([key, value]) =>
    typeof value === 'object' ? keys(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the chat texts', () => {
  it('exist in Hebrew for every English key, with the same placeholders', () => {
    expect(keys(he)).toEqual(keys(en));
    for (const key of keys(en)) expect(placeholders(lookup(he, key)), key).toEqual(placeholders(lookup(en, key)));
  });

  it('are written in Hebrew, not copied from English', () => {
    const untranslated = keys(en).filter(
      (key) => lookup(he, key) === lookup(en, key) && /[A-Za-z]{3}/.test(lookup(en, key).replace(/\{\w+\}/g, '')),
    );
    expect(untranslated).toEqual([]);
    expect(lookup(he, 'stage.analyzing')).toBe('מנתחים את ההודעה שלך...');
    expect(lookup(he, 'words', { count: 12 })).toBe('12/100 מילים');
  });

  it("keep the spec's English wording", () => {
    expect(lookup(en, 'stage.analyzing')).toBe('Analyzing your message...');
    expect(lookup(en, 'stage.thinking')).toBe('Thinking about the response...');
    expect(lookup(en, 'stage.generating')).toBe('Generating response...');
    expect(lookup(en, 'stage.finalizing')).toBe('Finalizing response...');
    expect(lookup(en, 'stage.requiresAction')).toBe('Processing additional requirements...');
    expect(lookup(en, 'runFailed', { message: lookup(en, 'unknownError') })).toBe(
      'Assistant run failed: Unknown error occurred',
    );
    expect(lookup(en, 'history.untitled')).toBe('Untitled Conversation');
  });
});
