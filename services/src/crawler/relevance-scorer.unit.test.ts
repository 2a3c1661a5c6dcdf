import { describe, expect, it } from 'vitest';
import { termVariants } from '@kesher/contracts/rules/search-terms';
import { assistantKeywords, scoreRelevance, type RelevancePage } from './relevance-scorer.js';

/** A word as the search rules write it (final letters and doubled yod folded). */
const asKeyword = (word: string) => termVariants(word)[0]!.term;

const bakery = assistantKeywords([
  'A friendly assistant for Crumb & Co., a sourdough bakery in Tel Aviv that delivers cakes and bread.',
  'עוזר של מאפייה בתל אביב: לחם מחמצת, עוגות ומשלוחים. תמיד תענה בנימוס.',
]);

const page = (overrides: Partial<RelevancePage>): RelevancePage => ({
  depth: 1,
  inboundLinks: 5,
  contentCharacters: 1500,
  title: null,
  headings: [],
  text: '',
  ...overrides,
});

describe('relevance score', () => {
  it('takes the business words from the description and instructions, not the instruction words', () => {
    expect(bakery.keywords).toEqual(
      expect.arrayContaining(['sourdough', 'bakery', 'cakes', ...['מאפייה', 'מחמצת', 'עוגות'].map(asKeyword)]),
    );
    expect(bakery.keywords).not.toContain('assistant');
    expect(bakery.keywords).not.toContain('friendly');
    expect(bakery.keywords).not.toContain('תענה');
  });

  it('ranks a page about the business above a thin, deep, unlinked one, and says why', () => {
    const delivery = scoreRelevance(
      page({
        depth: 1,
        inboundLinks: 20,
        title: 'Cake delivery',
        text: 'We deliver sourdough bread and cakes across Tel Aviv every morning.',
      }),
      { keywords: bakery, maxInboundLinks: 20 },
    );
    const legal = scoreRelevance(
      page({
        depth: 4,
        inboundLinks: 1,
        contentCharacters: 80,
        title: 'Cookie policy',
        text: 'This site stores small files.',
      }),
      { keywords: bakery, maxInboundLinks: 20 },
    );
    expect(delivery.score).toBeGreaterThan(0.8);
    expect(legal.score).toBeLessThan(0.3);
    expect(delivery.features.map((feature) => feature.feature)).toEqual([
      'depth',
      'inbound-links',
      'content-length',
      'keyword-overlap',
    ]);
    expect(delivery.explanation).toMatch(
      /^depth 1 \(\+0\.16\) · linked from 20 pages \(\+0\.20\) · 1,500 characters \(\+0\.20\) · matches “/,
    );
    expect(legal.explanation).toContain('shares no words with the assistant (+0.00)');
    for (const result of [delivery, legal])
      expect(result.score).toBeCloseTo(
        result.features.reduce((sum, feature) => sum + feature.contribution, 0),
        2,
      );
  });

  it('matches Hebrew words with their prefixes', () => {
    const hebrew = scoreRelevance(
      page({ title: 'המשלוחים שלנו', text: 'אנחנו שולחים עוגות ולחם מחמצת בכל בוקר. למאפייה שלנו יש תנור אבן.' }),
      { keywords: bakery, maxInboundLinks: 5 },
    );
    const overlap = hebrew.features.find((feature) => feature.feature === 'keyword-overlap')!;
    expect(overlap.note).toContain(`“${asKeyword('מחמצת')}”`);
    expect(overlap.value).toBeGreaterThan(0.4);
  });

  it('shares the keyword weight among the other features when the assistant has no description', () => {
    const result = scoreRelevance(page({ depth: 0, inboundLinks: 3, contentCharacters: 3000 }), {
      keywords: assistantKeywords([]),
      maxInboundLinks: 3,
    });
    expect(result.features.map((feature) => feature.weight)).toEqual([0.333, 0.333, 0.333]);
    expect(result.score).toBe(1);
    expect(result.explanation).toBe('the start page (+0.33) · linked from 3 pages (+0.33) · 3,000 characters (+0.33)');
  });
});
