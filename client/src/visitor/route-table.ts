import type { ComponentType } from 'react';

/** What every visitor page receives: its path parameters and the query string (with the `?`). */
export interface VisitorPageProps {
  params: Record<string, string | undefined>;
  search: string;
}

interface VisitorRoute {
  pattern: RegExp;
  keys: string[];
  load: () => Promise<{ Component: ComponentType<VisitorPageProps> }>;
}

/**
 * The spec's public pages without the layout (§2) that a visitor opens: each is its own chunk, so the
 * embed page inside a customer's site loads only what it shows.
 */
export const visitorRoutes: VisitorRoute[] = [
  {
    pattern: /^\/public-chat\/([^/]+)(?:\/([^/]+))?\/?$/,
    keys: ['assistantId', 'threadId'],
    load: () => import('./routes/public-chat'),
  },
  { pattern: /^\/shared-chat\/([^/]+)\/?$/, keys: ['shareToken'], load: () => import('./routes/shared-chat') },
  // /embed/ with no token is still the embed page: it says "No share token provided in URL" (part 2 §8).
  { pattern: /^\/embed(?:\/([^/]*))?\/?$/, keys: ['shareToken'], load: () => import('./routes/embed') },
];

/** Paths the server answers with visitor.html (and the owner app hands over to with a document load). */
export const VISITOR_PATH = /^\/(public-chat|shared-chat|embed)\//;

export function matchVisitorRoute(pathname: string) {
  for (const route of visitorRoutes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string | undefined> = {};
    route.keys.forEach((key, i) => {
      const value = match[i + 1];
      params[key] = value === undefined ? undefined : decodeURIComponent(value);
    });
    return { route, params };
  }
  return null;
}
