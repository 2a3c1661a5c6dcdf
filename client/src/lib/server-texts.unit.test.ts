import * as contracts from '@kesher/contracts';
import { chatInputProblem, limits, passwordRules } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { serverText } from './server-texts';

const HEBREW = /[\u0590-\u05FF]/u;

/**
 * The catalogues whose texts reach the client's pages as a server's `detail`. Every other `…Messages`
 * export of the contracts belongs to a feature no client page shows yet: it is listed here on purpose,
 * and moves to SHOWN (with its Hebrew in server-texts.ts) when its pages arrive.
 */
const SHOWN = new Set(['messages', 'chatMessages', 'fileMessages', 'crawlerMessages', 'analyticsMessages']);
const NOT_SHOWN_YET = new Set<string>([]);
const catalogues = () =>
  Object.entries(contracts).filter(([name, value]) => /messages$/i.test(name) && !!value && typeof value === 'object' && !Array.isArray(value));

/**
 * Every text of those catalogues, their templates called with sample numbers, the password rules and the
 * chat input rules. A new entry without its Hebrew fails here, before a Hebrew page shows it in English.
 */
function catalogue(): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of catalogues()) {
    if (!SHOWN.has(name)) continue;
    for (const [key, text] of Object.entries(value as Record<string, unknown>)) {
      if (typeof text === 'string') entries.push([`${name}.${key}`, text]);
      else if (typeof text === 'function') for (const n of [1, 42, 100]) entries.push([`${name}.${key}(${n})`, String((text as (...a: number[]) => unknown)(n, n, n))]);
    }
  }
  passwordRules.forEach((rule, i) => entries.push([`passwordRules[${i}]`, rule.message]));
  entries.push(['chatInputProblem(words)', chatInputProblem(Array.from({ length: limits.chatInputWords + 7 }, () => 'w').join(' '))!]);
  entries.push(['chatInputProblem(tokens)', chatInputProblem('x'.repeat(limits.chatInputTokens * 4 + 30))!]);
  return entries;
}

describe('the Hebrew of server errors', () => {
  const entries = catalogue();

  it('knows every catalogue of the contracts: shown by the client (with Hebrew), or not shown by any page yet', () => {
    const unknown = catalogues().map(([name]) => name).filter((name) => !SHOWN.has(name) && !NOT_SHOWN_YET.has(name));
    expect(unknown, 'a new catalogue: add its Hebrew to server-texts.ts and to SHOWN, or list it as not shown yet').toEqual([]);
  });

  it('finds the whole catalogue', () => {
    const names = new Set(entries.map(([name]) => name.split('.')[0]));
    expect(names).toContain('messages');
    expect(names).toContain('chatMessages');
    expect(names).toContain('fileMessages');
    expect(entries.length).toBeGreaterThan(40);
  });

  it.each(entries)('%s has a Hebrew text', (_name, english) => {
    const hebrew = serverText(english, 'he');
    expect(hebrew, english).not.toBe(english);
    expect(hebrew).toMatch(HEBREW);
    expect(hebrew).not.toMatch(/\{\w+\}/); // no placeholder left unfilled
  });

  it('keeps the numbers of a templated text', () => {
    expect(serverText(contracts.chatMessages.monthlyLimitReached(250), 'he')).toContain('250');
    expect(serverText(chatInputProblem(Array.from({ length: 123 }, () => 'w').join(' '))!, 'he')).toContain('123');
  });

  it('leaves English pages and unknown texts as the server said them', () => {
    expect(serverText(contracts.messages.assistantNotFound, 'en')).toBe(contracts.messages.assistantNotFound);
    expect(serverText('Something new from the server.', 'he')).toBe('Something new from the server.');
  });

  it('says the spec\'s 429 and THREAD_INVALID in Hebrew', () => {
    expect(serverText('Too many requests. Please try again later.', 'he')).toBe('יותר מדי בקשות. אנא נסו שוב מאוחר יותר.');
    expect(serverText('THREAD_INVALID', 'he')).toMatch(HEBREW);
  });
});
