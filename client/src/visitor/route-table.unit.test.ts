import { describe, expect, it } from 'vitest';
import { matchVisitorRoute, visitorRoutes } from './route-table';

const embedRoute = visitorRoutes.find((route) => route.pattern.source.includes('embed'));

describe('the visitor route table', () => {
  it('opens the embed page with its token', () => {
    const matched = matchVisitorRoute('/embed/tok_123');
    expect(matched?.route).toBe(embedRoute);
    expect(matched?.params.shareToken).toBe('tok_123');
  });

  it('opens the embed page without a token too, so that it can say none was given (not "Page not found.")', () => {
    for (const path of ['/embed/', '/embed']) {
      const matched = matchVisitorRoute(path);
      expect(matched?.route, path).toBe(embedRoute);
      expect(matched?.params.shareToken ?? '', path).toBe('');
    }
  });

  it('still refuses paths that are no page', () => {
    expect(matchVisitorRoute('/embed/a/b')).toBeNull();
    expect(matchVisitorRoute('/embedded/x')).toBeNull();
  });
});
