import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { bundleReport } from './scripts/bundle-report';
import { precompress } from './scripts/precompress';

/**
 * The visitor entry (public chat, share link, embed frame): built on its own, after the owner app,
 * into the same `dist`. It renders the same components, but on plain Preact — `react` resolves to
 * src/visitor/react-on-preact.ts, the few React APIs these pages use on Preact and its hooks, without
 * preact/compat — because this page loads inside customers' websites, on visitors' phones, where every
 * kilobyte is felt (#25 item 11: the embed page's scripts ≤ 20 KB gzip). Components shared with the
 * owner app therefore stick to what that module provides (hooks, context, memo, useSyncExternalStore;
 * code loaded on demand through lib/lazy-module.ts rather than lazy/Suspense); anything else fails
 * this build as a missing export.
 */
const src = fileURLToPath(new URL('./src', import.meta.url));

const VISITOR_ENTRY =
  /[\\/](lib[\\/](api-client|api-error-base|sanitize|token-storage|safe-storage|chat-core[\\/](chat-calls|chat-messages|chat-access|input-rules))|components[\\/]ui[\\/]spinner|rules[\\/](chat|limits)|public-chat[\\/]api[\\/]shared-assistant-shape|visitor[\\/]main)\.tsx?$/;

const EMBED_ROUTE = /[\\/](visitor[\\/]routes[\\/]embed|features[\\/]embed[\\/]parent-window)\.tsx?$/;

/**
 * The visitor pages read the server's answers by hand (features/public-chat/api/shared-assistant-shape.ts,
 * lib/chat-core/chat-messages.ts): zod would be tens of kilobytes on every visitor's phone, and its
 * compiled parsers a CSP violation unless configured first (lib/zod-jitless.ts, which the owner app
 * imports). A visitor module that imports it at run time fails this build instead.
 */
const noZod = (): Plugin => ({
  name: 'kesher-visitor-no-zod',
  enforce: 'pre',
  resolveId(id, importer) {
    if (/^zod(\/|$)/.test(id))
      this.error(`${importer ?? 'the visitor entry'} imports ${id}: the visitor pages stay free of zod`);
  },
});

export default defineConfig({
  plugins: [noZod(), precompress(), bundleReport()],
  resolve: {
    alias: [
      { find: '@', replacement: src },
      { find: /^react-dom(\/client)?$/, replacement: `${src}/visitor/react-dom-client-on-preact.ts` },
      { find: /^react\/jsx(-dev)?-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react$/, replacement: `${src}/visitor/react-on-preact.ts` },
    ],
  },
  build: {
    target: 'es2022',
    // visitor.html has one module script and no modulepreload links to polyfill: the polyfill would only
    // add bytes to the entry (the route chunks' own preloads fall back to <link rel=preload> without it).
    modulePreload: { polyfill: false },
    emptyOutDir: false,
    rollupOptions: {
      input: { visitor: fileURLToPath(new URL('./visitor.html', import.meta.url)) },
      output: {
        // The entry and what every visitor page needs besides (Preact, the API client, the chat calls, their
        // rules) are one file: every page loads all of it anyway, and one request compresses better than
        // seven (the entry module is in the group, so the group's chunk is the entry).
        // The embed page's own modules stay one chunk with its route: parent-window.ts, which the lazily loaded
        // parts and storage bridge use too, would otherwise become a chunk of its own on the first load.
        codeSplitting: {
          groups: [
            { name: 'visitor', test: VISITOR_ENTRY, priority: 2 },
            { name: 'embed', test: EMBED_ROUTE, priority: 1 },
          ],
        },
      },
    },
  },
});
