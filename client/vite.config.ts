import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { bundleReport } from './scripts/bundle-report';
import { precompress } from './scripts/precompress';

const src = fileURLToPath(new URL('./src', import.meta.url));
/** The visitor pages (public chat, share link, embed) are a second entry; the server maps them the same way. */
const VISITOR_PATH = /^\/(public-chat|shared-chat|embed)\//;

/** In `vite dev`, answer the visitor paths with visitor.html, as the API's client plugin does in production. */
const visitorEntryInDev = (): Plugin => ({
  name: 'kesher-visitor-entry',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && VISITOR_PATH.test(req.url)) req.url = '/visitor.html';
      next();
    });
  },
});

/**
 * After the owner app's build, render the public landing pages (/, /about) to HTML so they paint before
 * any script runs (scripts/prerender.tsx; served by the API for signed-out Hebrew visitors).
 */
const prerenderLandingPages = (): Plugin => ({
  name: 'kesher-prerender',
  apply: 'build',
  closeBundle() {
    const root = fileURLToPath(new URL('.', import.meta.url));
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/prerender.tsx'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.json' },
    });
  },
});

export default defineConfig({
  resolve: { alias: { '@': src } },
  plugins: [
    visitorEntryInDev(),
    prerenderLandingPages(),
    precompress(),
    bundleReport(),
    react(),
    VitePWA({
      // 'prompt': a new service worker waits until the owner accepts the update prompt, so a page
      // never changes under someone typing into a form.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icons/*.png'],
      manifest: {
        name: 'Kesher — AI assistants',
        short_name: 'Kesher',
        description: 'Build AI chat assistants from your own content.',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1d4ed8',
        lang: 'he',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512-maskable.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        navigateFallback: '/index.html',
        // The prerendered landing pages are for first visits over the network; the app shell serves offline.
        globIgnores: ['prerendered/**'],
        // The API is never answered from the precache; its last data comes from the persisted query cache.
        // The visitor pages are their own document (visitor.html), served by the server, never the owner shell.
        navigateFallbackDenylist: [/^\/api\//, VISITOR_PATH],
      },
    }),
  ],
  // The visitor entry (visitor.html) is built by vite.visitor.config.ts, on Preact, into the same dist.
  build: {
    target: 'es2022',
    rollupOptions: {
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]contracts[\\/]src[\\/]/.test(id) },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8000' } },
});
