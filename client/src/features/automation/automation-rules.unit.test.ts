import { describe, expect, it } from 'vitest';
import {
  cleanHeaders,
  cleanPhrases,
  inputLabel,
  insertMention,
  isHttpUrl,
  linkedActionNames,
  matchesSearch,
  mentionQuery,
  sampleTestInputs,
  takesBody,
  templateProblem,
  urlSource,
} from './automation-rules';

describe('automation rules', () => {
  it('searches case-insensitively over the given fields, a blank search keeps all', () => {
    expect(matchesSearch('', 'x')).toBe(true);
    expect(matchesSearch('  ', 'x')).toBe(true);
    expect(matchesSearch('BOOK', 'Book a table', 'trigger')).toBe(true);
    expect(matchesSearch('refund', 'Book a table', 'wants a refund')).toBe(true);
    expect(matchesSearch('הזמנה', 'הזמנת שולחן', null)).toBe(false);
    expect(matchesSearch('הזמנ', 'הזמנת שולחן')).toBe(true);
  });

  it('drops empty training phrases before sending, trims, and keeps each phrase once (§5)', () => {
    expect(cleanPhrases(['  book a table ', '', '   ', 'Book a table', 'reserve'])).toEqual([
      'book a table',
      'reserve',
    ]);
    expect(cleanPhrases([''])).toEqual([]);
  });

  it('drops headers with an empty key or value, and sends none when none remain (§5)', () => {
    expect(
      cleanHeaders([
        { key: 'X-Api-Key', value: 'k' },
        { key: '', value: 'v' },
        { key: 'Accept', value: ' ' },
      ]),
    ).toEqual([{ key: 'X-Api-Key', value: 'k' }]);
    expect(cleanHeaders([{ key: '', value: '' }])).toBeUndefined();
  });

  it('sends a body only for methods other than GET', () => {
    expect(takesBody('GET')).toBe(false);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(takesBody(method)).toBe(true);
  });

  it('tests with 123 for a number, true for a boolean and "test_value" otherwise (§7)', () => {
    expect(
      sampleTestInputs([
        { name: 'qty', type: 'number' },
        { name: 'gift', type: 'boolean' },
        { name: 'email', type: 'email' },
        { name: 'id', type: 'string' },
      ]),
    ).toEqual({
      qty: 123,
      gift: true,
      email: 'test_value',
      id: 'test_value',
    });
  });

  it('labels inputs "name (type)" with * when required', () => {
    expect(inputLabel({ name: 'order_id', type: 'string', required: true })).toBe('order_id (string)*');
    expect(inputLabel({ name: 'note', type: 'string', required: false })).toBe('note (string)');
  });

  it('says what is wrong with a template as it is typed', () => {
    const inputs = [
      { name: 'order_id', type: 'string' as const },
      { name: 'qty', type: 'number' as const },
    ];
    expect(templateProblem('', inputs)).toBeNull();
    expect(templateProblem('https://x.test/{{order_id}}', inputs)).toBeNull();
    expect(templateProblem('https://x.test/{{order_id}', inputs)).toEqual({ kind: 'malformed' });
    expect(templateProblem('https://x.test/{{orderId}}/{{sku}}', inputs)).toEqual({
      kind: 'unknown',
      names: ['orderId', 'sku'],
    });
    expect(templateProblem('{"id": "{{order_id}}", "qty": {{qty}}}', inputs, true)).toBeNull();
    expect(templateProblem('{"id": "{{order_id}}",}', inputs, true)).toEqual({ kind: 'invalidJson' });
    // Not JSON is fine where JSON is not asked for (an endpoint).
    expect(templateProblem('plain {{qty}}', inputs)).toBeNull();
  });

  it('makes URL sources with the URL as their name, and knows an http(s) address', () => {
    expect(urlSource(' https://docs.example.com/faq ')).toEqual({
      type: 'url',
      name: 'https://docs.example.com/faq',
      url: 'https://docs.example.com/faq',
    });
    expect(isHttpUrl('https://docs.example.com')).toBe(true);
    expect(isHttpUrl('ftp://docs.example.com')).toBe(false);
    expect(isHttpUrl('docs.example.com')).toBe(false);
  });

  it('names the linked actions that still exist', () => {
    expect(
      linkedActionNames(
        ['a2', 'gone', 'a1'],
        [
          { id: 'a1', title: 'One' },
          { id: 'a2', title: 'Two' },
        ],
      ),
    ).toEqual(['Two', 'One']);
  });

  it('reads the @mention being typed and replaces it with the action title', () => {
    expect(mentionQuery('Use @ord', 8)).toBe('ord');
    expect(mentionQuery('Use @', 5)).toBe('');
    expect(mentionQuery('mail me@example', 15)).toBeNull();
    expect(mentionQuery('no mention', 10)).toBeNull();
    expect(insertMention('Use @ord then', 8, 'Order status')).toEqual({ text: 'Use @Order status  then', caret: 18 });
  });
});
