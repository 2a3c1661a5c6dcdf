import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress';

/**
 * The website widget (widget.js), built last into the same `dist`: one framework-free IIFE that site
 * owners paste into any page (`<script src="…/widget.js" data-share-token="…">`). No React, no chunks,
 * no module script — it must run in every page as a classic script (goal: ≤ 10 KB gzip). The API serves
 * it like any other file of `dist`, revalidated on each load (it has no content hash).
 */
export default defineConfig({
  plugins: [precompress()],
  publicDir: false,
  build: {
    target: 'es2020',
    outDir: 'dist',
    emptyOutDir: false,
    lib: {
      entry: fileURLToPath(new URL('./widget/widget.ts', import.meta.url)),
      formats: ['iife'],
      name: 'KesherWidget',
      fileName: () => 'widget.js',
    },
  },
});
