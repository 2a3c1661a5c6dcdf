import { detectLanguage, parseRedirect } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import type { RetrievedPassage } from '../knowledge/search/retrieve.js';
import { composeAnswer } from './builtin.provider.js';
import { buildPrompt } from './prompt.js';
import { bestSalesPage, type SalesPage } from './sales-pages.js';

const site = 'https://crumb.example';
const salesPages: SalesPage[] = [
  { url: `${site}/products/mug`, title: 'Bakery mug', category: 'product', relevanceScore: 0.7 },
  { url: `${site}/pricing`, title: 'Pricing', category: 'pricing', relevanceScore: 0.6 },
  { url: `${site}/book-a-tasting`, title: 'Book a tasting', category: 'booking', relevanceScore: 0.4 },
  { url: `${site}/he/מחירון`, title: 'מחירון', category: 'pricing', relevanceScore: 0.5 },
];
const passage = (text: string, sourceUrl: string | null, extra: Partial<RetrievedPassage> = {}): RetrievedPassage => ({
  fileId: 'f1',
  filename: 'page.html',
  sourceUrl,
  section: null,
  text,
  score: 1,
  ...extra,
});

describe('the sales page a buying visitor is sent to', () => {
  it('is the kind of page the question asks for: prices to the price list, an appointment to booking, buying a product to its page', () => {
    expect(bestSalesPage('How much does a loaf cost?', [], salesPages)).toBe(`${site}/pricing`);
    expect(bestSalesPage('Can I book a tasting for Friday?', [], salesPages)).toBe(`${site}/book-a-tasting`);
    expect(bestSalesPage('I want to buy the mug', [], salesPages)).toBe(`${site}/products/mug`);
  });

  it('in Hebrew too', () => {
    expect(
      bestSalesPage(
        'כמה עולה לחם מחמצת?',
        [],
        salesPages.filter((page) => page.url.includes('/he/') || page.category !== 'pricing'),
      ),
    ).toBe(`${site}/he/מחירון`);
    expect(bestSalesPage('אפשר לקבוע תור לטעימה?', [], salesPages)).toBe(`${site}/book-a-tasting`);
  });

  it('prefers, among pages of one kind, the one the answer itself came from', () => {
    const fromHebrew = [passage('לחם מחמצת – 28 ₪', `${site}/he/מחירון`)];
    expect(bestSalesPage('What are your prices?', fromHebrew, salesPages)).toBe(`${site}/he/מחירון`);
  });

  it('without crawled sales pages, falls back to a retrieved passage from a page to buy on; never to an address outside the knowledge', () => {
    expect(
      bestSalesPage('price?', [passage('Loaf: $8', `${site}/pricing`), passage('About us', `${site}/about`)]),
    ).toBe(`${site}/pricing`);
    expect(bestSalesPage('price?', [passage('Loaf: $8', null)])).toBeNull();
  });
});

describe('Sales Mode in the answers', () => {
  const request = (question: string, salesMode: boolean) => ({
    question,
    language: detectLanguage(question),
    history: [],
    assistant: { name: 'Crumb', instructions: '', salesMode: { enabled: salesMode, salesPrompt: '' }, salesPages },
    passages: [passage('Sourdough loaf — $8.50. Cheesecake — $32.', `${site}/pricing`, { filename: 'pricing.html' })],
  });

  it('the built-in engine adds the redirect marker to the best sales page of the crawled site, only in sales mode and only for a buying question', () => {
    expect(parseRedirect(composeAnswer(request('How much is the cheesecake?', true))).redirectUrl).toBe(
      `${site}/pricing`,
    );
    expect(parseRedirect(composeAnswer(request('How much is the cheesecake?', false))).redirectUrl).toBeNull();
    expect(
      parseRedirect(composeAnswer(request('Is the cheesecake baked with cream cheese?', true))).redirectUrl,
    ).toBeNull();
  });

  it('the OpenAI prompt lists the sales pages as the only addresses to send a visitor to, and names the one for this question', () => {
    const system = buildPrompt(request('Can I book a tasting?', true))[0]!.content;
    expect(system).toContain('SALES PAGES of this business');
    for (const page of salesPages) expect(system).toContain(page.url);
    expect(system).toContain(`[REDIRECT: ${site}/book-a-tasting]`);
    expect(buildPrompt(request('Can I book a tasting?', false))[0]!.content).not.toContain('SALES PAGES');
  });
});
