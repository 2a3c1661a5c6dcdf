import * as contracts from '@kesher/contracts';
import { chatInputProblem, limits, passwordRules } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { serverText } from './server-texts';
// The owner app's own texts (Drive, channels, automation), registered as its entry does.
import './server-texts-more';

const HEBREW = /[\u0590-\u05FF]/u;

/**
 * Templates whose values are not numbers, called with the values the server passes them (the verbs, the
 * things, the fields and lists its checks name). Every other template is called with sample numbers.
 */
const SAMPLES: Record<string, unknown[][]> = {
  'integration.channelUnreachable': [['Telegram', 'Unauthorized']],
  'automation.failed': [
    ['create', 'workflow'],
    ['update', 'guideline'],
    ['delete', 'action'],
  ],
  'automation.confirmDelete': [['workflow'], ['guideline'], ['action']],
  'automation.tooLong': [
    ['Title', 200],
    ['Trigger condition', 500],
    ['Instructions', 5000],
    ['Endpoint URL', 2048],
    ['Body template', 20_000],
    ['A training phrase', 300],
    ['Description', 1000],
  ],
  'automation.tooMany': [
    ['linked actions', 20],
    ['training phrases', 50],
    ['headers', 20],
    ['inputs', 20],
    ['sources', 20],
    ['endpoints', 10],
  ],
  'automation.unknownLinkedAction': [['act_1a2b']],
  'automation.malformedTemplate': [['Endpoint URL'], ['Body template'], ['Header Authorization']],
  'automation.unknownPlaceholder': [['Body template', 'order_id']],
  'automation.duplicateInput': [['order_id']],
  'automation.missingTestInput': [['order_id']],
  'automation.unknownEndpointName': [['orders']],
  'automation.duplicateEndpointName': [['orders']],
  'automation.actionRefused': [['private address 10.0.0.1']],
  'automation.actionUnreachable': [['connection refused']],
  'automation.actionNotJson': [['text/html'], [null]],
  'automation.actionInputInvalid': [
    ['order_id', 'number'],
    ['express', 'boolean'],
  ],
};
/**
 * Every text of the catalogues (by code: contracts http/error-codes.ts), its templates called with sample
 * values, the password rules and the chat input rules. A new entry without its Hebrew fails here, before
 * a Hebrew page shows it in English.
 */
function catalogue(): [name: string, english: string, code: string | null][] {
  const entries: [string, string, string | null][] = [];
  for (const [code, text] of contracts.errorCodeEntries()) {
    if (typeof text === 'string') entries.push([code, text, code]);
    else {
      const samples = SAMPLES[code] ?? [1, 42, 100].map((n) => [n, n, n]);
      for (const args of samples)
        entries.push([`${code}(${args.join(', ')})`, String((text as (...a: unknown[]) => unknown)(...args)), code]);
    }
  }
  passwordRules.forEach((rule, i) => entries.push([`passwordRules[${i}]`, rule.message, null]));
  entries.push([
    'chatInputProblem(words)',
    chatInputProblem(Array.from({ length: limits.chatInputWords + 7 }, () => 'w').join(' '))!,
    null,
  ]);
  entries.push(['chatInputProblem(tokens)', chatInputProblem('x'.repeat(limits.chatInputTokens * 4 + 30))!, null]);
  return entries;
}

describe('the Hebrew of server errors', () => {
  const entries = catalogue();

  it('finds the whole catalogue', () => {
    const names = new Set(entries.map(([name]) => name.split('.')[0]));
    for (const name of Object.keys(contracts.errorCatalogues)) expect(names).toContain(name);
    expect(entries.length).toBeGreaterThan(150);
  });

  it.each(entries)('%s has a Hebrew text', (_name, english) => {
    const hebrew = serverText(english, 'he');
    expect(hebrew, english).not.toBe(english);
    expect(hebrew).toMatch(HEBREW);
    // No placeholder left unfilled; `{{input}}` is the automation templates' own syntax, quoted on purpose.
    expect(hebrew).not.toMatch(/(?<!\{)\{\w+\}(?!\})/);
  });

  // The server sends each text's code beside it (and a parametrised text's values): the Hebrew follows the
  // code, so the same Hebrew shows however the English is worded, and it is the Hebrew of the words.
  it.each(entries.filter(([, , code]) => code !== null))('%s has its Hebrew by code', (_name, english, code) => {
    const said = contracts.errorCodeFor(english);
    expect(said?.code).toBe(code);
    const hebrew = serverText('A sentence the client has never seen.', 'he', said);
    expect(hebrew).toMatch(HEBREW);
    expect(hebrew).toBe(serverText(english, 'he'));
  });

  it('shows the Hebrew of a reworded English text by its code, and the sentence when there is no code', () => {
    const reworded = 'We could not find that assistant. Is it still there?';
    expect(serverText(reworded, 'he', { code: 'common.assistantNotFound' })).toBe(
      serverText(contracts.messages.assistantNotFound, 'he'),
    );
    expect(
      serverText("You've hit the 3-assistant ceiling of your plan.", 'he', {
        code: 'common.assistantLimitReached',
        args: ['3'],
      }),
    ).toContain('3 עוזרים');
    expect(serverText(contracts.messages.assistantNotFound, 'he', { code: 'unknown.code' })).toBe(
      serverText(contracts.messages.assistantNotFound, 'he'),
    );
    expect(serverText(reworded, 'he')).toBe(reworded);
    expect(serverText(reworded, 'en', { code: 'common.assistantNotFound' })).toBe(reworded);
  });

  it('says the texts once written at their throw sites in Hebrew by code, however the English is reworded', () => {
    expect(serverText('That e-mail and password do not match.', 'he', { code: 'signIn.invalidCredentials' })).toBe(
      'כתובת האימייל או הסיסמה שגויים. אנא בדקו את הפרטים.',
    );
    expect(serverText('Telegram is for paying plans.', 'he', { code: 'plan.needsPaidPlan.telegram' })).toBe(
      'טלגרם דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
    );
    // A channel's refusal carries its reason as a value, itself said in Hebrew when it is a known text.
    expect(
      serverText('Telegram would not connect: no app secret.', 'he', {
        code: 'channelSetup.refused.whatsapp',
        args: [contracts.integrationMessages.appSecretNeeded],
      }),
    ).toBe(`הגדרת האינטגרציה עם WhatsApp נכשלה: ${serverText(contracts.integrationMessages.appSecretNeeded, 'he')}`);
    expect(
      serverText('The site shop.example timed out.', 'he', { code: 'site.timeout', args: ['shop.example', '20'] }),
    ).toBe('האתר shop.example לא ענה תוך 20 שניות.');
    // The spec's English stays the server's own words on an English page.
    expect(serverText(contracts.signInMessages.invalidCredentials, 'en', { code: 'signIn.invalidCredentials' })).toBe(
      contracts.signInMessages.invalidCredentials,
    );
  });

  it('keeps the numbers of a templated text', () => {
    expect(serverText(contracts.chatMessages.monthlyLimitReached(250), 'he')).toContain('250');
    // The limits check's "would go over" (services/src/analytics/limits-service.ts wouldExceedMessage).
    expect(serverText("This would go over your plan's limit of 5 files for this assistant: 4 left.", 'he')).toBe(
      'זה יחרוג ממגבלת התוכנית שלכם: 5 קבצים לעוזר הזה. נותרו 4.',
    );
    expect(serverText(chatInputProblem(Array.from({ length: 123 }, () => 'w').join(' '))!, 'he')).toContain('123');
  });

  it('leaves English pages and unknown texts as the server said them', () => {
    expect(serverText(contracts.messages.assistantNotFound, 'en')).toBe(contracts.messages.assistantNotFound);
    expect(serverText('Something new from the server.', 'he')).toBe('Something new from the server.');
  });

  it("says the spec's 429 and THREAD_INVALID in Hebrew", () => {
    expect(serverText('Too many requests. Please try again later.', 'he')).toBe(
      'יותר מדי בקשות. אנא נסו שוב מאוחר יותר.',
    );
    expect(serverText('THREAD_INVALID', 'he')).toMatch(HEBREW);
  });
});
