import { describe, expect, it } from 'vitest';
import { splitText } from './split-text.js';

describe('splitText', () => {
  it('keeps a short answer whole', () => {
    expect(splitText('  The loaf costs 24 shekels.  ', 4096)).toEqual(['The loaf costs 24 shekels.']);
  });

  it("splits a long answer at Telegram's 4096 characters, at paragraph or sentence boundaries, losing nothing", () => {
    const paragraph = `${'The sourdough rests for two days before it is baked. '.repeat(30).trim()}`;
    const text = Array.from({ length: 6 }, () => paragraph).join('\n\n');
    const parts = splitText(text, 4096);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((part) => part.length <= 4096)).toBe(true);
    expect(parts.every((part) => part.endsWith('.'))).toBe(true);
    expect(parts.join(' ').replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' '));
  });

  it('cuts a text without spaces at the limit, never inside an emoji', () => {
    const text = `${'a'.repeat(999)}😀${'b'.repeat(500)}`;
    const parts = splitText(text, 1000);
    expect(parts[0]).toBe('a'.repeat(999));
    expect(parts[1]!.startsWith('😀')).toBe(true);
    expect(parts.join('')).toBe(text);
  });

  it('splits Hebrew at word boundaries', () => {
    const text = 'הלחם נאפה בכל בוקר '.repeat(100).trim();
    const parts = splitText(text, 1000);
    expect(parts.every((part) => part.length <= 1000 && !part.startsWith(' ') && !part.endsWith(' '))).toBe(true);
    expect(parts.join(' ')).toBe(text);
  });
});
