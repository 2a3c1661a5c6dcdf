import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress';

/**
 * The visitor entry (public chat, share link, embed frame): built on its own, after the owner app,
 * into the same `dist`. It renders the same components, but on Preact's React compatibility layer —
 * a tenth of react-dom's size — because this page loads inside customers' websites, on visitors'
 * phones, where every kilobyte is felt (issue goal: ≤ 80 KB gzip for the whole first load).
 * Components shared with the owner app therefore stick to APIs both provide (hooks, context, lazy,
 * Suspense, useSyncExternalStore; no React-19-only APIs such as `use` or ref-as-prop).
 */
const src = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  plugins: [precompress()],
  resolve: {
    alias: [
      { find: '@', replacement: src },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react$/, replacement: 'preact/compat' },
    ],
  },
  build: {
    target: 'es2022',
    emptyOutDir: false,
    rollupOptions: { input: { visitor: fileURLToPath(new URL('./visitor.html', import.meta.url)) } },
  },
});
