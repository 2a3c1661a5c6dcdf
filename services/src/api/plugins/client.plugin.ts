import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The visitor pages: a separate, small entry of the client (client/visitor.html). */
const VISITOR_PATH = /^\/(public-chat|shared-chat|embed)\//;
/**
 * The landing pages prerendered at build time (client/scripts/prerender.tsx): their markup paints before
 * any script runs. The HTML itself falls back to the plain shell for signed-in or English visitors.
 */
const PRERENDERED: Record<string, string> = { '/': 'prerendered/home.html', '/about': 'prerendered/about.html' };
/** Only the embed page is meant to live inside other sites' frames; every other page refuses framing. */
const EMBED_PATH = /^\/embed\//;

/**
 * Serves the built PWA (client/dist) so one URL shows the whole product. Paths outside /api that are
 * not files get index.html (the owner app's router owns them) or, for the visitor pages, visitor.html.
 * Hashed assets are cached for a year; the shells and the service worker are always revalidated so an
 * update is picked up.
 *
 * The build's files are not counted against the API's rate limit: one first visit alone asks for a few
 * dozen of them, and the service worker then precaches the whole build, so visitors sharing an address
 * (an office, a phone carrier's NAT) would soon get 429s for the app's own scripts. They are files read
 * from disk, precompressed, with no work behind them.
 */
export const clientPlugin = fp(async (app: FastifyInstance, options: { distDir: string }) => {
  if (!existsSync(join(options.distDir, 'index.html'))) {
    app.log.warn(`no client build at ${options.distDir}; run \`npm run build -w client\``);
    return;
  }
  await app.register(fastifyStatic, {
    root: options.distDir,
    // No route per file: every path is answered by the route below (`reply.sendFile`), which is exempt
    // from the rate limit.
    serve: false,
    cacheControl: false,
    index: false,
    // The build writes .br/.gz next to each text file (client/scripts/precompress.ts).
    preCompressed: true,
    setHeaders(response, path) {
      const immutable = /[\\/]assets[\\/]/.test(path);
      response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/')) return reply.callNotFound();
    const file = path.slice(1);
    if (file && existsSync(join(options.distDir, file))) return reply.sendFile(file);
    reply.header('cache-control', 'no-cache');
    const prerendered = PRERENDERED[path];
    if (prerendered && existsSync(join(options.distDir, prerendered))) return reply.sendFile(prerendered);
    if (VISITOR_PATH.test(path) && existsSync(join(options.distDir, 'visitor.html'))) {
      if (EMBED_PATH.test(path)) {
        reply.removeHeader('x-frame-options');
        reply.header('content-security-policy', 'frame-ancestors *');
      }
      return reply.sendFile('visitor.html');
    }
    return reply.sendFile('index.html');
  });
});
