import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { inlineScriptHashes, pagePolicy } from './client-csp.js';

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
 * A path segment the build can contain: letters, digits, `.`, `_`, `-`, not starting with a dot. So no
 * `..`, no hidden files, nothing encoded: a request for anything else is not a file of the build.
 */
const BUILD_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * The build's file a URL path names, relative to the build, or undefined. The path is decoded first, so
 * `%2e%2e%2f` is caught like `../`; a path that is not plainly inside the build is answered like any
 * unknown path (the app's shell), never by looking outside — an existing and a missing file outside
 * the build cannot be told apart.
 */
function buildFile(distDir: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const segments = decoded.split('/').slice(1);
  if (!segments.length || !segments.every((segment) => BUILD_SEGMENT.test(segment))) return undefined;
  const file = segments.join('/');
  try {
    return statSync(join(distDir, file)).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

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
  /** Each HTML file's policy, with the hashes of its inline scripts; recomputed when the file changes (a rebuild). */
  const policies = new Map<string, { mtimeMs: number; scriptHashes: string[] }>();
  function policyFor(file: string, embeddable: boolean) {
    const app = file === 'visitor.html' ? 'visitor' : 'owner';
    if (!file.endsWith('.html')) return pagePolicy({ scriptHashes: [], app, embeddable });
    const path = join(options.distDir, file);
    const { mtimeMs } = statSync(path);
    let known = policies.get(file);
    if (known?.mtimeMs !== mtimeMs) {
      known = { mtimeMs, scriptHashes: inlineScriptHashes(readFileSync(path, 'utf8')) };
      policies.set(file, known);
    }
    return pagePolicy({ scriptHashes: known.scriptHashes, app, embeddable });
  }
  /** Every file of the build leaves with its policy: for pages it is the page's, for the service worker the worker's. */
  function send(reply: FastifyReply, file: string, embeddable = false) {
    reply.header('content-security-policy', policyFor(file, embeddable));
    if (embeddable) reply.removeHeader('x-frame-options');
    return reply.sendFile(file);
  }

  app.get('/*', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/')) return reply.callNotFound();
    const file = buildFile(options.distDir, path);
    if (file) return send(reply, file);
    reply.header('cache-control', 'no-cache');
    const prerendered = PRERENDERED[path];
    if (prerendered && existsSync(join(options.distDir, prerendered))) return send(reply, prerendered);
    if (VISITOR_PATH.test(path) && existsSync(join(options.distDir, 'visitor.html')))
      return send(reply, 'visitor.html', EMBED_PATH.test(path));
    return send(reply, 'index.html');
  });
});
