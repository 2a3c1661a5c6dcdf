import * as contracts from '@kesher/contracts';
import { chatInputProblem, limits, passwordRules } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { serverText } from './server-texts';
// The owner app's own texts (Drive, channels, automation), registered as its entry does.
import './server-texts-more';

const HEBREW = /[\u0590-\u05FF]/u;

/**
 * The catalogues whose texts reach the client's pages as a server's `detail`. Every other `…Messages`
 * export of the contracts belongs to a feature no client page shows yet: it is listed here on purpose,
 * and moves to SHOWN (with its Hebrew in server-texts.ts) when its pages arrive.
 */
const SHOWN = new Set(['messages', 'chatMessages', 'fileMessages', 'crawlerMessages', 'analyticsMessages', 'driveMessages', 'integrationMessages', 'automationMessages', 'accountMessages']);

/**
 * Templates whose values are not numbers, called with the values the server passes them (the verbs, the
 * things, the fields and lists its checks name). Every other template is called with sample numbers.
 */
const SAMPLES: Record<string, unknown[][]> = {
  'integrationMessages.channelUnreachable': [['Telegram', 'Unauthorized']],
  'automationMessages.failed': [['create', 'workflow'], ['update', 'guideline'], ['delete', 'action']],
  'automationMessages.confirmDelete': [['workflow'], ['guideline'], ['action']],
  'automationMessages.tooLong': [['Title', 200], ['Trigger condition', 500], ['Instructions', 5000], ['Endpoint URL', 2048], ['Body template', 20_000], ['A training phrase', 300], ['Description', 1000]],
  'automationMessages.tooMany': [['linked actions', 20], ['training phrases', 50], ['headers', 20], ['inputs', 20], ['sources', 20], ['endpoints', 10]],
  'automationMessages.unknownLinkedAction': [['act_1a2b']],
  'automationMessages.malformedTemplate': [['Endpoint URL'], ['Body template'], ['Header Authorization']],
  'automationMessages.unknownPlaceholder': [['Body template', 'order_id']],
  'automationMessages.duplicateInput': [['order_id']],
  'automationMessages.missingTestInput': [['order_id']],
  'automationMessages.unknownEndpointName': [['orders']],
  'automationMessages.duplicateEndpointName': [['orders']],
  'automationMessages.actionRefused': [['private address 10.0.0.1']],
  'automationMessages.actionUnreachable': [['connection refused']],
  'automationMessages.actionNotJson': [['text/html'], [null]],
  'automationMessages.actionInputInvalid': [['order_id', 'number'], ['express', 'boolean']],
};
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
      else if (typeof text === 'function') {
        const samples = SAMPLES[`${name}.${key}`] ?? [1, 42, 100].map((n) => [n, n, n]);
        for (const args of samples) entries.push([`${name}.${key}(${args.join(', ')})`, String((text as (...a: unknown[]) => unknown)(...args))]);
      }
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
    // No placeholder left unfilled; `{{input}}` is the automation templates' own syntax, quoted on purpose.
    expect(hebrew).not.toMatch(/(?<!\{)\{\w+\}(?!\})/);
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
