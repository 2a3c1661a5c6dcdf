import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';

export interface CollectedRoute {
  method: HTTPMethods;
  url: string;
  /** A WebSocket route (`websocket: true`): a plain request gets its HTTP answer, not an upgrade. */
  websocket: boolean;
}

/**
 * Runs `build` and answers every route that any Fastify instance created meanwhile declared, as the
 * router saw it (prefixes applied). Fastify publishes each new instance on the `fastify.initialization`
 * diagnostics channel before any plugin runs, so an `onRoute` hook added there sees every route — the
 * tests that sweep "every route" then cover a route the day it is added, with no list to keep up.
 * HEAD routes Fastify derives from GET ones are left out (same handler).
 */
export async function collectRoutes<T>(build: () => Promise<T>): Promise<{ result: T; routes: CollectedRoute[] }> {
  const routes: CollectedRoute[] = [];
  const onInstance = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route: RouteOptions & { websocket?: boolean }) => {
      for (const method of [route.method].flat()) {
        if (
          method === 'HEAD' &&
          route.exposeHeadRoute !== false &&
          routes.some((r) => r.method === 'GET' && r.url === route.url)
        )
          continue;
        routes.push({ method, url: route.url, websocket: route.websocket === true });
      }
    });
  };
  subscribe('fastify.initialization', onInstance);
  try {
    const result = await build();
    return { result, routes: dedupe(routes) };
  } finally {
    unsubscribe('fastify.initialization', onInstance);
  }
}

function dedupe(routes: CollectedRoute[]): CollectedRoute[] {
  const seen = new Map<string, CollectedRoute>();
  for (const route of routes) seen.set(`${route.method} ${route.url}`, route);
  return [...seen.values()];
}
