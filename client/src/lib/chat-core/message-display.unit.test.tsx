import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BidiLines, readableAddress, sourceLabel, visibleText } from './message-display';

describe('how a chat message is shown', () => {
  it('takes redirect commands out, complete or still streaming in', () => {
    expect(visibleText('Prices are on our site.\nYou can continue here:\n[REDIRECT: https://shop.example/buy]')).toBe(
      'Prices are on our site.\nYou can continue here:',
    );
    expect(visibleText('You can continue here:\n[REDIRECT: https://shop.exa')).toBe('You can continue here:');
    expect(visibleText('You can continue here:\n[REDI')).toBe('You can continue here:');
    expect(visibleText('You can continue here:\n[')).toBe('You can continue here:');
    expect(visibleText('A list [1] stays.')).toBe('A list [1] stays.');
    expect(visibleText('No command.')).toBe('No command.');
  });

  it('names a source by its title, its own file name, or a crawled page by its address', () => {
    expect(
      sourceLabel({
        filename: 'shop.example-products-city-bike-c3f920c5.html',
        sourceUrl: 'https://www.shop.example/products/city-bike/',
      }),
    ).toBe('shop.example/products/city-bike');
    expect(
      sourceLabel({
        filename: '127.0.0.1-products-city-bike-c3f920c5.html',
        sourceUrl: 'http://127.0.0.1:8080/products/city-bike',
      }),
    ).toBe('127.0.0.1/products/city-bike');
    expect(sourceLabel({ filename: 'x', sourceUrl: 'https://shop.example/', title: 'City Bike — Shop' })).toBe(
      'City Bike — Shop',
    );
    expect(sourceLabel({ filename: 'Price list 2026.pdf', sourceUrl: 'https://drive.google.com/file/d/abc' })).toBe(
      'Price list 2026.pdf',
    );
    expect(sourceLabel({ filename: 'menu.txt', sourceUrl: null })).toBe('menu.txt');
    expect(readableAddress('https://shop.example/%D7%9E%D7%97%D7%99%D7%A8%D7%95%D7%9F')).toBe('shop.example/מחירון');
    expect(readableAddress('not a url')).toBe('not a url');
  });

  it('puts every line in its own direction and keeps blank lines as gaps', () => {
    const { container } = render(<BidiLines text={'שלום\nHello.\n\nשוב'} />);
    const lines = [...container.querySelectorAll('.bidi-line')];
    expect(lines.map((line) => line.getAttribute('dir'))).toEqual(['auto', 'auto', null, 'auto']);
    expect(lines[2]).toHaveClass('bidi-gap');
    expect(lines[2]).toHaveAttribute('aria-hidden', 'true');
  });
});

describe('a message from the server', async () => {
  const { toChatMessage } = await import('./chat-messages');
  it('turns a redirect command into the button, on its own line or mid-line', () => {
    const own = toChatMessage({
      id: 'm1',
      role: 'assistant',
      content: [{ text: { value: 'Here:\n[REDIRECT: https://shop.example/buy]' } }],
    });
    expect(own).toMatchObject({ text: 'Here:', redirectUrl: 'https://shop.example/buy' });
    const inline = toChatMessage({
      id: 'm2',
      role: 'assistant',
      content: [{ text: { value: 'Here: [REDIRECT: https://shop.example/buy]' } }],
    });
    expect(inline.redirectUrl).toBe('https://shop.example/buy');
    expect(visibleText(inline.text)).toBe('Here:');
    expect(
      toChatMessage({ id: 'm3', role: 'user', content: 'x [REDIRECT: https://a.example]' }).redirectUrl,
    ).toBeNull();
    const titled = toChatMessage({
      id: 'm4',
      role: 'assistant',
      content: 'Bikes.',
      sources: [
        {
          file_id: 'file-1',
          filename: 'shop.example-bike-c3f920c5.html',
          source_url: 'https://shop.example/bike',
          section: null,
          title: 'City Bike',
        },
      ],
    });
    expect(sourceLabel(titled.sources[0]!)).toBe('City Bike');
  });
});
