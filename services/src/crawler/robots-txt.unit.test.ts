import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, robotsPolicyFor, robotsPolicyFromFetch } from './robots-txt.js';

const site = (path: string) => `https://example.test${path}`;

describe('robots.txt', () => {
  it('obeys the group that names us, else the * group, and combines groups of the same agent', () => {
    const robots = parseRobotsTxt(`
# comment
User-agent: Googlebot
Disallow: /

User-agent: *
Disallow: /private
Crawl-delay: 2

User-agent: KesherBot
User-agent: OtherBot
Disallow: /drafts

user-agent: kesherbot/2.1
Disallow: /tmp   # trailing comment
Sitemap: https://example.test/sitemap.xml
`);
    const ours = robotsPolicyFor(robots, 'KesherBot');
    expect(ours.isAllowed(site('/private'))).toBe(true);
    expect(ours.isAllowed(site('/drafts/1'))).toBe(false);
    expect(ours.isAllowed(site('/tmp/x'))).toBe(false);
    expect(ours.crawlDelaySeconds).toBeNull();
    expect(ours.sitemaps).toEqual(['https://example.test/sitemap.xml']);

    const someone = robotsPolicyFor(robots, 'SomeBot');
    expect(someone.isAllowed(site('/private/a'))).toBe(false);
    expect(someone.isAllowed(site('/drafts'))).toBe(true);
    expect(someone.crawlDelaySeconds).toBe(2);
  });

  it('lets the longest match decide, Allow winning a tie, with * and $ patterns', () => {
    const policy = robotsPolicyFor(
      parseRobotsTxt(`User-agent: *
Disallow: /shop/
Allow: /shop/products/
Disallow: /*.pdf$
Disallow: /*?sort=
Allow: /page
Disallow: /page
Disallow: /cart$`),
    );
    expect(policy.isAllowed(site('/shop/cart'))).toBe(false);
    expect(policy.isAllowed(site('/shop/products/mug'))).toBe(true);
    expect(policy.isAllowed(site('/files/menu.pdf'))).toBe(false);
    expect(policy.isAllowed(site('/files/menu.pdf?v=2'))).toBe(true);
    expect(policy.isAllowed(site('/list?sort=price'))).toBe(false);
    expect(policy.isAllowed(site('/list?page=2'))).toBe(true);
    expect(policy.isAllowed(site('/page'))).toBe(true);
    expect(policy.isAllowed(site('/cart'))).toBe(false);
    expect(policy.isAllowed(site('/cart/items'))).toBe(true);
    expect(policy.isAllowed(site('/robots.txt'))).toBe(true);
    expect(policy.disallowsEverything).toBe(false);
  });

  it('matches Hebrew paths written as letters in robots.txt', () => {
    const policy = robotsPolicyFor(parseRobotsTxt('User-agent: *\nDisallow: /מחירון-פנימי\n'));
    expect(policy.isAllowed(new URL(site('/מחירון-פנימי/2025')))).toBe(false);
    expect(policy.isAllowed(new URL(site('/מחירון')))).toBe(true);
  });

  it('knows a site that forbids everything, and tolerates misspellings, empty rules and a BOM', () => {
    const closed = robotsPolicyFor(parseRobotsTxt('\uFEFFUser-agent: *\r\nDisallow: /\r\n'));
    expect(closed.disallowsEverything).toBe(true);
    expect(closed.isAllowed(site('/'))).toBe(false);
    const sloppy = robotsPolicyFor(parseRobotsTxt('Useragent: *\nDissallow: /x\nDisallow:\nCrawl-delay: soon\n'));
    expect(sloppy.isAllowed(site('/x'))).toBe(false);
    expect(sloppy.isAllowed(site('/y'))).toBe(true);
    expect(sloppy.crawlDelaySeconds).toBeNull();
    expect(robotsPolicyFor(parseRobotsTxt('Disallow: /\n')).isAllowed(site('/'))).toBe(true); // no group: no rules
  });

  it('reads the fetch outcome as RFC 9309 says: 4xx allows all, 5xx and no answer forbid all', () => {
    expect(robotsPolicyFromFetch({ status: 404, body: '' })).toMatchObject({
      disallowsEverything: false,
      note: 'robots.txt answered 404: everything allowed',
    });
    expect(robotsPolicyFromFetch({ status: 503, body: '' })).toMatchObject({
      disallowsEverything: true,
      note: 'robots.txt answered 503: the site is not crawled',
    });
    const unreachable = robotsPolicyFromFetch({ unreachable: 'The site example.test could not be reached.' });
    expect(unreachable.disallowsEverything).toBe(true);
    expect(unreachable.isAllowed(site('/'))).toBe(false);
    expect(robotsPolicyFromFetch({ status: 200, body: 'User-agent: *\nDisallow: /a' }).isAllowed(site('/a'))).toBe(
      false,
    );
  });
});
