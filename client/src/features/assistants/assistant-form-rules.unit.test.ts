import { describe, expect, it } from 'vitest';
import { canSubmit, emptyForm, hasPrompt, togglePrompt, validateAssistant, withCrawler } from './assistant-form-rules';

const filled = { ...emptyForm, name: 'Shop', description: 'Helps buyers', instructions: 'Be kind' };
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('assistant form rules (spec §5)', () => {
  it('needs a name, and all three required fields before submitting', () => {
    expect(validateAssistant({ ...filled, name: '  ' })).toMatchObject({
      name: 'nameRequired',
      form: 'requiredFields',
    });
    expect(canSubmit({ ...filled, instructions: '' })).toBe(false);
    expect(canSubmit(filled)).toBe(true);
    expect(validateAssistant(filled)).toEqual({});
  });

  it('allows 1000 words and refuses 1001 in description, instructions and sales prompt', () => {
    expect(validateAssistant({ ...filled, description: words(1000) })).toEqual({});
    expect(validateAssistant({ ...filled, description: words(1001) }).description).toBe('descriptionTooLong');
    expect(validateAssistant({ ...filled, instructions: words(1001) }).instructions).toBe('instructionsTooLong');
    expect(
      validateAssistant({
        ...filled,
        crawlerEnabled: true,
        websiteUrl: 'https://a.co',
        salesMode: true,
        salesPrompt: words(1001),
      }).salesPrompt,
    ).toBe('salesPromptTooLong');
  });

  it('checks the website URL and requires one when the crawler is on', () => {
    expect(validateAssistant({ ...filled, websiteUrl: 'not a url' }).websiteUrl).toBe('invalidUrl');
    expect(validateAssistant({ ...filled, websiteUrl: 'ftp://shop.example.com' }).websiteUrl).toBe('invalidUrl');
    expect(validateAssistant({ ...filled, crawlerEnabled: true }).websiteUrl).toBe('crawlerUrlRequired');
    expect(canSubmit({ ...filled, crawlerEnabled: true })).toBe(false);
  });

  it('switching the crawler off switches sales mode off', () => {
    const on = { ...filled, crawlerEnabled: true, salesMode: true };
    expect(withCrawler(on, false)).toMatchObject({ crawlerEnabled: false, salesMode: false });
    expect(withCrawler(on, true).salesMode).toBe(true);
  });

  it('a predefined prompt is appended once and removed again', () => {
    const prompt = 'Always be polite.';
    const added = togglePrompt('Answer briefly.', prompt);
    expect(added).toBe('Answer briefly.\n\nAlways be polite.');
    expect(hasPrompt(added, prompt)).toBe(true);
    expect(togglePrompt(added, prompt)).toBe('Answer briefly.');
    expect(togglePrompt('', prompt)).toBe(prompt);
  });
});
