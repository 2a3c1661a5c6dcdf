import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findUnsafeText, isSafeText } from './safe-text.js';

describe('safe text', () => {
  it('refuses NUL and unpaired surrogates, keeps every well-formed text', () => {
    for (const bad of ['a\u0000b', '\uD800', 'x\uDC00', '\uDBFFz', '\uDC00\uD800'])
      expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ['', 'שלום', '😀', 'a\uD83D\uDE00b', 'tab\tnew\nline'])
      expect(isSafeText(good), good).toBe(true);
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => isSafeText(text) === !text.includes('\u0000')));
  });

  it('names the first unsafe value or key by its path', () => {
    expect(findUnsafeText({ name: 'ok', sales_mode: { sales_prompt: 'x\u0000' } })).toEqual([
      'sales_mode',
      'sales_prompt',
    ]);
    expect(findUnsafeText({ list: ['a', '\uD800'] })).toEqual(['list', 1]);
    expect(findUnsafeText({ ['k\u0000']: 1 })).toEqual(['k\u0000']);
    expect(findUnsafeText('\uDC00')).toEqual([]);
    expect(findUnsafeText({ a: [1, true, null, { b: 'fine' }] })).toBeUndefined();
  });

  it('walks a body nested far deeper than the call stack', () => {
    const depth = 200_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`);
    expect(findUnsafeText(deep)).toHaveLength(depth);
  });
});
