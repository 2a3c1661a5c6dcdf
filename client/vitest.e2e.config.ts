import { defineConfig } from 'vitest/config';

// Browser tests: a real Chromium against the real server (see e2e/global-setup.ts).
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 90_000,
    // expect.poll's 1 s default is a wall-clock margin (vitest.config.ts at the root says why).
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
