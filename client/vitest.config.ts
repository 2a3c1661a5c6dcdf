import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The client's own test config (the repository root's vitest.config.ts is the backend's).
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.unit.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Waits on the DOM are bounded, not timed: jsdom renders a screen in milliseconds on a quiet machine and in
    // seconds beside a full suite and a benchmark, where vitest's 5 s default failed a passing test.
    testTimeout: 30_000,
    // expect.poll's 1 s default likewise (vitest.config.ts at the root says why).
    expect: { poll: { timeout: 10_000 } },
  },
});
