import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
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

const VISITOR_CORE =
  /[\\/](lib[\\/](api-client|api-error-base|sanitize|token-storage|safe-storage|chat-core[\\/](chat-calls|chat-messages|chat-access|input-rules))|components[\\/]ui[\\/]spinner|rules[\\/](chat|limits)|public-chat[\\/]api[\\/]shared-assistant)\.tsx?$/;

export default defineConfig({
  plugins: [precompress(), bundleReport()],
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
        // What every visitor page needs after the entry (the API client, the chat calls, their rules) is one
        // chunk rather than six small ones: fewer requests, and gzip does better on one file than on six.
        codeSplitting: { groups: [{ name: 'visitor-core', test: VISITOR_CORE }] },
      },
    },
  },
});
