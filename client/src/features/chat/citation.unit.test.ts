import { describe, expect, it } from 'vitest';
import type { ChatSource } from './api/chat-types';
import { withoutCitation } from './citation';

const source = (filename: string, sourceUrl: string | null = null): ChatSource => ({ fileId: `file-${filename}`, filename, sourceUrl });

describe('an answer shows its sources once', () => {
  it('drops the citation paragraph that names exactly the message sources', () => {
    expect(withoutCitation('We bake at six.\n\nSource: hours.txt', [source('hours.txt')])).toBe('We bake at six.');
    expect(withoutCitation('אנחנו אופים בשש.\n\nמקורות: a.txt, b.pdf (https://b.example/x)', [source('a.txt'), source('b.pdf', 'https://b.example/x')])).toBe('אנחנו אופים בשש.');
  });

  it('keeps what follows the citation (sales mode: the visit line)', () => {
    expect(withoutCitation('Order online.\n\nSource: shop.txt\n\nYou can continue here:', [source('shop.txt')])).toBe('Order online.\n\nYou can continue here:');
  });

  it('leaves the text alone when it cites something else, or nothing, or the message has no sources', () => {
    expect(withoutCitation('We bake at six.\n\nSource: other.txt', [source('hours.txt')])).toBe('We bake at six.\n\nSource: other.txt');
    expect(withoutCitation('Note: we are closed on Monday.', [source('hours.txt')])).toBe('Note: we are closed on Monday.');
    expect(withoutCitation('We bake at six.\n\nSource: hours.txt', [])).toBe('We bake at six.\n\nSource: hours.txt');
  });
});
