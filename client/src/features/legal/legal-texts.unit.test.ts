import { describe, expect, it } from 'vitest';
import { en } from './locales/en';
import { he } from './locales/he';

describe('the terms of service (spec part 2 §2, §5)', () => {
  it('have 17 sections, the same in both languages', () => {
    expect(en.terms).toHaveLength(17);
    expect(he.terms.map((s) => s.id)).toEqual(en.terms.map((s) => s.id));
  });

  it('state that users must be at least 18, in English and in Hebrew', () => {
    const text = (sections: { text: string }[]) => sections.map((s) => s.text).join('\n');
    expect(text(en.terms)).toContain('You must be at least 18 years old');
    expect(text(he.terms)).toContain('עליכם להיות בני 18 לפחות');
  });
});
