import { describe, expect, it } from 'vitest';
import { ActionBodySchema } from '../http/automation.dto.js';
import {
  parseTemplate,
  renderHeaderTemplate,
  renderJsonTemplate,
  renderUrlTemplate,
  sampleInputValue,
  templateInputs,
} from './automation.js';

describe('{{input}} templates', () => {
  it('parses placeholders (spaces allowed) and refuses malformed ones', () => {
    expect(templateInputs('https://x.example/{{ id }}/items?q={{query}}')).toEqual(['id', 'query']);
    for (const bad of ['{{id', 'id}}', '{{}}', '{{two words}}', '{{1abc}}', '}}{{id}}'])
      expect(parseTemplate(bad), bad).toBeNull();
    expect(parseTemplate('no placeholders')).toEqual([{ kind: 'text', text: 'no placeholders' }]);
  });

  it('renders JSON bodies so that values cannot break out of their place', () => {
    const parts = parseTemplate('{"q": "say {{text}}", "n": {{n}}, "flag": {{flag}}, "raw": {{text}}}')!;
    const out = renderJsonTemplate(parts, { text: 'a" , "admin": true, "x": "\\', n: 3, flag: false });
    expect(JSON.parse(out)).toEqual({
      q: 'say a" , "admin": true, "x": "\\',
      n: 3,
      flag: false,
      raw: 'a" , "admin": true, "x": "\\',
    });
    // An escaped quote in the template's own text does not confuse where strings are.
    expect(JSON.parse(renderJsonTemplate(parseTemplate('{"a": "x\\"{{v}}"}')!, { v: '"' }))).toEqual({ a: 'x""' });
  });

  it('percent-encodes URL values and strips line breaks from header values', () => {
    expect(renderUrlTemplate(parseTemplate('https://x.example/orders/{{id}}')!, { id: '../admin?x=1#' })).toBe(
      'https://x.example/orders/..%2Fadmin%3Fx%3D1%23',
    );
    expect(renderHeaderTemplate(parseTemplate('Bearer {{t}}')!, { t: 'a\r\nX-Evil: 1' })).toBe('Bearer a X-Evil: 1');
  });

  it('uses the spec’s sample values: 123 for number, true for boolean, "test_value" otherwise', () => {
    expect([
      sampleInputValue('number'),
      sampleInputValue('boolean'),
      sampleInputValue('string'),
      sampleInputValue('email'),
    ]).toEqual([123, true, 'test_value', 'test_value']);
  });

  it('an action is checked when saved: placeholders known, JSON body, http(s) endpoint, no body on GET', () => {
    const ok = ActionBodySchema.safeParse({
      title: 't',
      api_method: 'POST',
      api_endpoint: 'https://x.example/{{id}}',
      api_inputs: [{ name: 'id', type: 'number' }],
      api_body_template: '{"id": {{id}}}',
    });
    expect(ok.success).toBe(true);
    const messages = (body: unknown) => (ActionBodySchema.safeParse(body).error?.issues ?? []).map((i) => i.message);
    expect(messages({ title: 't', api_endpoint: 'https://x.example/', api_body_template: '{"a":1}' })).toEqual([
      'A GET action has no body template',
    ]);
    expect(messages({ title: 't', api_endpoint: 'javascript:alert(1)' })).toEqual([
      'The endpoint must be an http:// or https:// address',
    ]);
    expect(
      messages({ title: 't', api_endpoint: 'https://x.example/', api_inputs: [{ name: 'a' }, { name: 'a' }] }),
    ).toEqual(['Input "a" is listed twice']);
    expect(messages({ title: 't', endpoint_name: 'shop', api_endpoint: 'https://x.example/' })).toEqual([
      'With a named endpoint, the endpoint is a path starting with /',
    ]);
  });
});
